import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createClient, QuantumCustodyError } from "../src/index.js";
import { parseRetryAfter } from "../src/retry.js";

type Answer = { status: number; headers?: Record<string, string>; body?: unknown };

/** A real HTTP server that answers `answers` in order and records what each request carried. */
async function scriptedServer(answers: Answer[]): Promise<{ url: string; seen: IncomingMessage[]; server: Server }> {
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    res.writeHead(answer.status, { "content-type": "application/json", "x-request-id": `req-${seen.length}`, ...answer.headers });
    res.end(JSON.stringify(answer.body ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

const error = (name: string, code: number) => ({ error: name, code, message: name.toLowerCase(), requestId: "body-id" });

describe("retries", () => {
  it("waits Retry-After on 429 and 503, keeping the POST's idempotency key", async () => {
    const { url, seen, server } = await scriptedServer([
      { status: 429, headers: { "retry-after": "1" }, body: error("RATE_LIMITED", 1060) },
      { status: 503, headers: { "retry-after": new Date(Date.now() + 1000).toUTCString() }, body: error("UNAVAILABLE", 1070) },
      { status: 201, body: { id: "v1" } },
    ]);
    servers.push(server);
    const client = createClient({ baseUrl: url, apiKey: "key:secret", retry: { baseDelayMs: 10 } });
    const started = Date.now();
    const vault = await client.post("/v1/vault/accounts", { body: { name: "Treasury", networkCode: "QUANTUM_SANDBOX" } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // the 429's one second, not the 10 ms backoff
    expect(vault).toEqual({ id: "v1" });
    expect(seen).toHaveLength(3);
    const keys = seen.map((req) => req.headers["x-idempotency-key"]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(seen[0]!.headers.authorization).toBe("Bearer key:secret");
  });

  it("does not retry 400 or 409", async () => {
    for (const [status, name, code] of [
      [400, "VALIDATION_FAILED", 1001],
      [409, "CONFLICT", 1040],
    ] as const) {
      const { url, seen, server } = await scriptedServer([{ status, body: error(name, code) }]);
      servers.push(server);
      const client = createClient({ baseUrl: url, apiKey: "key:secret", retry: { baseDelayMs: 10 } });
      const thrown = await client.get("/v1/vault/accounts").catch((e: unknown) => e);
      expect(thrown).toBeInstanceOf(QuantumCustodyError);
      expect(thrown).toMatchObject({ error: name, code, status, requestId: "req-1" });
      expect(seen).toHaveLength(1);
    }
  });

  it("retries a POST whose connection was reset, with the same idempotency key, until an answer", async () => {
    const keys: unknown[] = [];
    const server = createServer((req, res) => {
      keys.push(req.headers["x-idempotency-key"]);
      // The first two attempts lose their connection mid-request: no answer at all.
      if (keys.length <= 2) return req.socket.destroy();
      res.writeHead(201, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "v1" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    const client = createClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: "key:secret",
      retry: { baseDelayMs: 10 },
    });
    const vault = await client.post("/v1/vault/accounts", {
      body: { name: "Treasury", networkCode: "QUANTUM_SANDBOX" },
      idempotencyKey: "payout-7",
    });
    expect(vault).toEqual({ id: "v1" });
    expect(keys).toEqual(["payout-7", "payout-7", "payout-7"]);
  });

  it("gives up after maxAttempts without an answer, naming the request, the attempts and the reason", async () => {
    let attempts = 0;
    const server = createServer((req) => {
      attempts += 1;
      req.socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = createClient({ baseUrl: url, apiKey: "key:secret", retry: { maxAttempts: 3, baseDelayMs: 10 } });
    const thrown = await client
      .post("/v1/vault/accounts", { body: { name: "T", networkCode: "QUANTUM_SANDBOX" } })
      .catch((e: unknown) => e);
    expect(attempts).toBe(3);
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown).not.toBeInstanceOf(QuantumCustodyError);
    expect((thrown as Error).message).toMatch(new RegExp(`^POST ${url}/v1/vault/accounts: no answer after 3 attempts: fetch failed: .+`));
    expect((thrown as Error).cause).toBeInstanceOf(TypeError);

    // Refused: nothing listens on the port any more.
    await new Promise((resolve) => server.close(resolve));
    const refused = await createClient({ baseUrl: url, apiKey: "key:secret", retry: { maxAttempts: 2, baseDelayMs: 10 } })
      .get("/v1/vault/accounts")
      .catch((e: unknown) => e);
    expect((refused as Error).message).toMatch(/^GET .*\/v1\/vault\/accounts: no answer after 2 attempts: fetch failed: .*ECONNREFUSED/);
  });

  it("gives up on a 503 whose Retry-After is past maxRetryAfterMs, with the contract's error", async () => {
    const { url, seen, server } = await scriptedServer([
      { status: 503, headers: { "retry-after": "120" }, body: error("UNAVAILABLE", 1070) },
    ]);
    servers.push(server);
    const client = createClient({ baseUrl: url, apiKey: "key:secret", retry: { baseDelayMs: 10 } });
    const thrown = await client.get("/v1/vault/accounts").catch((e: unknown) => e);
    expect(thrown).toMatchObject({ error: "UNAVAILABLE", code: 1070, status: 503, retryAfterSeconds: 120 });
    expect(seen).toHaveLength(1);
  });

  it("parses Retry-After as seconds or an HTTP date", () => {
    expect(parseRetryAfter("7")).toBe(7);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
