import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import type { TLSSocket } from "node:tls";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deliverWebhook, type DeliverWebhookParameters, outcomeForStatus, parseRetryAfter } from "./deliver";
import { generateWebhookSecret } from "./sign";
import type { HostResolver } from "./ssrf";
import { testCertificate } from "./testing";
import { verifyWebhook } from "./verify";

interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  servername: string | false | null;
}

/** A real HTTPS receiver on 127.0.0.1; its certificate names hooks.example.test and 127.0.0.1. */
let server: Server;
let port: number;
let certificate: string;
let received: ReceivedRequest[] = [];

const HOSTNAME = "hooks.example.test";
const toLoopback: HostResolver = async () => [{ address: "127.0.0.1", family: 4 }];

beforeAll(async () => {
  const pems = await testCertificate({ commonName: HOSTNAME, dnsNames: [HOSTNAME] });
  certificate = pems.cert;
  server = createServer(pems, (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      received.push({
        method: request.method ?? "",
        path,
        headers: request.headers,
        body: Buffer.concat(chunks),
        servername: (request.socket as TLSSocket).servername,
      });
      switch (path) {
        case "/ok":
          return response.writeHead(200, { "content-type": "text/plain" }).end("thanks");
        case "/accepted":
          return response.writeHead(204).end();
        case "/error":
          return response.writeHead(500, { "content-type": "text/plain" }).end("é".repeat(3000));
        case "/gone":
          return response.writeHead(410).end("endpoint removed");
        case "/redirect":
          return response.writeHead(302, { location: `https://127.0.0.1:${port}/ok` }).end();
        case "/nul":
          return response.writeHead(502).end("bad\u0000gateway");
        case "/not-found":
          return response.writeHead(404).end("no such hook");
        case "/timeout":
          return response.writeHead(408).end();
        case "/busy":
          return response.writeHead(429, { "retry-after": "120" }).end("slow down");
        case "/unavailable":
          return response.writeHead(503, { "retry-after": "Sat, 21 Nov 2026 10:01:30 GMT" }).end();
        case "/slow":
          return; // never answers: the client's timeout must end the attempt
        case "/slow-body":
          response.writeHead(200, { "content-type": "text/plain" });
          return response.write("partial"); // status sent, body never finished
        default:
          return response.writeHead(500).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received = [];
});

const body = JSON.stringify({
  id: "01936f8e-7d2a-7c41-9a8e-2f5b6c7d8e9f",
  type: "webhook.test",
  timestamp: "2026-11-21T10:00:00.000Z",
  data: { note: "exact  bytes ✓ ü" },
});
const secret = generateWebhookSecret();

function attempt(path: string, overrides: Partial<DeliverWebhookParameters> = {}) {
  return deliverWebhook({
    url: `https://127.0.0.1:${port}${path}`,
    id: "01936f8e-7d2a-7c41-9a8e-2f5b6c7d8e9f",
    body,
    secrets: [secret],
    allowPrivate: true,
    trustedCertificates: certificate,
    ...overrides,
  });
}

describe("deliverWebhook", () => {
  it("POSTs the exact body bytes with signatures both verifiers accept, and reports delivered", async () => {
    const result = await attempt("/ok");
    expect(result).toMatchObject({
      outcome: "delivered",
      statusCode: 200,
      responseExcerpt: "thanks",
      error: null,
      retryAfterSeconds: null,
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(received).toHaveLength(1);
    const [request] = received as [ReceivedRequest];
    expect(request.method).toBe("POST");
    expect(request.body.equals(Buffer.from(body, "utf8"))).toBe(true);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["webhook-id"]).toBe("01936f8e-7d2a-7c41-9a8e-2f5b6c7d8e9f");
    expect(new Webhook(secret).verify(request.body.toString("utf8"), request.headers as Record<string, string>)).toEqual(JSON.parse(body));
    expect(verifyWebhook(secret, request.headers, request.body).payload).toEqual(JSON.parse(body));
    expect((await attempt("/accepted")).outcome).toBe("delivered");
  });

  it("signs with both secrets during a rotation", async () => {
    const previous = generateWebhookSecret();
    await attempt("/ok", { secrets: [secret, previous] });
    const [request] = received as [ReceivedRequest];
    expect(String(request.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const key of [secret, previous])
      expect(verifyWebhook(key, request.headers, request.body).id).toBe("01936f8e-7d2a-7c41-9a8e-2f5b6c7d8e9f");
  });

  it("connects to the vetted address while TLS and Host name the URL's host", async () => {
    let lookups = 0;
    const resolveHost: HostResolver = async (hostname) => {
      lookups += 1;
      expect(hostname).toBe(HOSTNAME);
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const url = `https://${HOSTNAME}:${port}/ok`;
    expect((await attempt("", { url, resolveHost })).outcome).toBe("delivered");
    expect((await attempt("", { url, resolveHost })).outcome).toBe("delivered");
    expect(lookups).toBe(2); // vetted again at every delivery
    expect(received.map((r) => [r.headers.host, r.servername])).toEqual([
      [`${HOSTNAME}:${port}`, HOSTNAME],
      [`${HOSTNAME}:${port}`, HOSTNAME],
    ]);
  });

  it("checks the certificate against the URL's host, not the address it connects to", async () => {
    const result = await attempt("", { url: `https://other.example.test:${port}/ok`, resolveHost: toLoopback });
    expect(result.outcome).toBe("retry");
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/altnames|other\.example\.test/i);
    expect(received).toHaveLength(0);
  });

  it("refuses, without sending, a host that now resolves to a private address", async () => {
    const rebound: HostResolver = async () => [{ address: "10.0.0.5", family: 4 }];
    const result = await attempt("", { url: `https://${HOSTNAME}:${port}/ok`, resolveHost: rebound, allowPrivate: false });
    expect(result).toMatchObject({ outcome: "failed", statusCode: null, responseExcerpt: null });
    expect(result.error).toMatch(/resolves to 10\.0\.0\.5, which is a private/);
    const loopback = await attempt("/ok", { allowPrivate: false });
    expect(loopback.outcome).toBe("failed");
    expect(loopback.error).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(received).toHaveLength(0);
  });

  it("retries on 5xx and keeps only a truncated excerpt of the answer", async () => {
    const result = await attempt("/error", { maxResponseBytes: 1001 });
    expect(result).toMatchObject({ outcome: "retry", statusCode: 500, error: "HTTP 500", retryAfterSeconds: null });
    // 1001 bytes cut a two-byte "é" in half: the partial character is dropped, not mangled.
    expect(result.responseExcerpt).toBe("é".repeat(500));
    // PostgreSQL text cannot hold NUL; the excerpt is stored as is.
    expect(await attempt("/nul")).toMatchObject({ outcome: "retry", statusCode: 502, responseExcerpt: "badgateway" });
  });

  it("disables on 410 Gone", async () => {
    expect(await attempt("/gone")).toMatchObject({
      outcome: "disable",
      statusCode: 410,
      responseExcerpt: "endpoint removed",
      error: "HTTP 410",
    });
  });

  it("does not follow a redirect and does not retry it", async () => {
    const result = await attempt("/redirect");
    expect(result).toMatchObject({ outcome: "failed", statusCode: 302, error: "HTTP 302: redirects are not followed" });
    expect(received.map((r) => r.path)).toEqual(["/redirect"]);
  });

  it("fails without retry on other 4xx, retries 408", async () => {
    expect(await attempt("/not-found")).toMatchObject({ outcome: "failed", statusCode: 404, responseExcerpt: "no such hook" });
    expect(await attempt("/timeout")).toMatchObject({ outcome: "retry", statusCode: 408 });
  });

  it("honours Retry-After as seconds and as an HTTP date", async () => {
    expect(await attempt("/busy")).toMatchObject({ outcome: "retry", statusCode: 429, retryAfterSeconds: 120 });
    const now = () => new Date("2026-11-21T10:00:00.000Z");
    expect(await attempt("/unavailable", { now })).toMatchObject({ outcome: "retry", statusCode: 503, retryAfterSeconds: 90 });
  });

  it("times out a receiver that does not answer, and retries", async () => {
    const result = await attempt("/slow", { timeoutMs: 300 });
    expect(result).toMatchObject({ outcome: "retry", statusCode: null, responseExcerpt: null, error: "timed out after 300 ms" });
    expect(received.map((r) => r.path)).toEqual(["/slow"]);
  });

  it("keeps the status of a receiver that answered but never finished its body", async () => {
    expect(await attempt("/slow-body", { timeoutMs: 300 })).toMatchObject({
      outcome: "delivered",
      statusCode: 200,
      responseExcerpt: "partial",
    });
  });

  it("retries a refused connection and an untrusted certificate", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await attempt("", { url: `https://127.0.0.1:${closedPort}/ok` });
    expect(refused).toMatchObject({ outcome: "retry", statusCode: null });
    expect(refused.error).toMatch(/ECONNREFUSED/);
    const untrusted = await attempt("/ok", { trustedCertificates: undefined });
    expect(untrusted.outcome).toBe("retry");
    expect(untrusted.error).toMatch(/self[- ]signed/i);
    expect(received).toHaveLength(0);
  });
});

describe("outcomeForStatus and parseRetryAfter", () => {
  it("follow CONTRACT §7", () => {
    expect([200, 201, 299, 301, 400, 401, 404, 408, 409, 410, 422, 429, 500, 502, 599].map(outcomeForStatus)).toEqual([
      "delivered",
      "delivered",
      "delivered",
      "failed",
      "failed",
      "failed",
      "failed",
      "retry",
      "failed",
      "disable",
      "failed",
      "retry",
      "retry",
      "retry",
      "retry",
    ]);
    const now = new Date("2026-11-21T10:00:00.000Z");
    expect(parseRetryAfter("30", now)).toBe(30);
    expect(parseRetryAfter("Sat, 21 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
