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
    const vault = await client.post("/v1/vault/accounts", { body: { name: "Treasury", networkCode: "QUANTUM_SANDBOX" } });
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

  it("parses Retry-After as seconds or an HTTP date", () => {
    expect(parseRetryAfter("7")).toBe(7);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
