import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@qc/db/testing";
import { malformedRequest, type MalformedRequest } from "./malformed-requests";
import { parseFirstResponse, rawExchange, startWebProcess, type RawExchange, type WebProcess } from "./web-process";

// Whatever a socket sends, the web process answers (4xx, never 5xx) or closes, and keeps serving.
// The corpus is generated from a seed printed below; `FUZZ_SEED=<n>` replays a run exactly.
// Runs against apps/web/server.ts in its own process (API only, as production's API instances
// run), so a rejection nobody catches would show as a process exit, not as a test-runner warning.

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : randomInt(2 ** 31);
const TLS_CASES = 4_000;
const PLAIN_CASES = 1_200;
const CONCURRENCY = 32;
const PER_REQUEST_TIMEOUT_MS = 10_000;

const ERROR_KEYS = ["code", "error", "message", "requestId"];

interface Outcome {
  answered: number;
  closed: number;
  byStatus: Record<number, number>;
  failures: string[];
}

/** One case's verdict: a well-formed response under 500 (a 4xx when it must refuse), or a clean close. */
function judge(request: MalformedRequest, { bytes, timedOut, errorCode }: RawExchange, outcome: Outcome, transport: string): void {
  const label = `${transport} case ${request.index} (${request.kind}, FUZZ_SEED=${SEED}): ${JSON.stringify(Buffer.concat(request.chunks).subarray(0, 160).toString("latin1"))}`;
  if (timedOut) return void outcome.failures.push(`${label}: no answer and no close within ${PER_REQUEST_TIMEOUT_MS} ms`);
  if (errorCode === "ECONNREFUSED") return void outcome.failures.push(`${label}: connection refused (the process is gone)`);
  if (bytes.length === 0) {
    outcome.closed += 1;
    return;
  }
  try {
    const response = parseFirstResponse(bytes);
    outcome.answered += 1;
    outcome.byStatus[response.status] = (outcome.byStatus[response.status] ?? 0) + 1;
    if (response.status >= 500) throw new Error(`answered ${response.status}: ${response.body.toString("utf8").slice(0, 300)}`);
    if (request.mustRefuse && response.status < 400) throw new Error(`answered ${response.status} to a request it must refuse`);
    // A HEAD answer announces a body it does not send; what follows belongs to the next request.
    const head = Buffer.concat(request.chunks).subarray(0, 5).toString("latin1") === "HEAD ";
    if (response.status >= 400 && response.body.length > 0 && !head) {
      const parsed = JSON.parse(response.body.toString("utf8")) as Record<string, unknown> & { error?: { json?: Record<string, unknown> } };
      // tRPC answers keep tRPC's envelope around the same flat body (docs/decisions/foundation.md).
      const body = typeof parsed.error === "object" && parsed.error?.json ? parsed.error.json : parsed;
      expect(
        Object.keys(body)
          .filter((k) => k !== "details" && k !== "data")
          .sort(),
      ).toEqual(ERROR_KEYS);
      if (response.headers["x-request-id"] !== undefined) expect(body.requestId).toBe(response.headers["x-request-id"]);
    }
  } catch (error) {
    outcome.failures.push(`${label}: ${(error as Error).message}`);
  }
}

async function fuzz(target: { port: number; ca?: string }, transport: "tls" | "plain", from: number, count: number): Promise<Outcome> {
  const outcome: Outcome = { answered: 0, closed: 0, byStatus: {}, failures: [] };
  let session: Buffer | undefined;
  let next = from;
  const worker = async () => {
    while (next < from + count) {
      const request = malformedRequest(SEED, next++);
      const tls = transport === "tls" ? { ca: target.ca, session, onSession: (s: Buffer) => (session = s) } : undefined;
      judge(request, await rawExchange({ port: target.port, tls }, request.chunks, PER_REQUEST_TIMEOUT_MS), outcome, transport);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return outcome;
}

async function healthz(web: WebProcess): Promise<number> {
  const { bytes } = await rawExchange(
    { port: web.httpsPort, tls: { ca: web.cert } },
    [Buffer.from("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")],
    10_000,
    { halfClose: false },
  );
  return parseFirstResponse(bytes).status;
}

/** Lines where the process reported an error no request path caught. */
function uncaught(web: WebProcess): string[] {
  return web
    .output()
    .split("\n")
    .filter((line) =>
      /unhandled promise rejection|uncaught exception|uncaughtException|unhandledRejection|request handler failed/i.test(line),
    );
}

describe("the web process under a socket-level fuzz", () => {
  const t = useTestDatabase();
  let web: WebProcess;

  beforeAll(async () => {
    process.stdout.write(`socket fuzz: FUZZ_SEED=${SEED} (set it to replay this run)\n`);
    web = await startWebProcess(t.url);
  }, 150_000);
  afterAll(async () => {
    await web?.close();
  }, 30_000);

  it("answers `GET http://[ HTTP/1.1` over TLS with 400 and keeps serving", async () => {
    const { bytes, timedOut } = await rawExchange(
      { port: web.httpsPort, tls: { ca: web.cert } },
      [Buffer.from("GET http://[ HTTP/1.1\r\nHost: x\r\n\r\n")],
      10_000,
    );
    expect(timedOut).toBe(false);
    const response = parseFirstResponse(bytes);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body.toString())).toMatchObject({ error: "VALIDATION_FAILED", code: 1001 });
    expect(web.child.exitCode).toBeNull();
    expect(await healthz(web)).toBe(200);
  });

  it("answers the same request on the plain-HTTP port (PUBLIC_URL set) with 400 and keeps serving", async () => {
    const { bytes } = await rawExchange({ port: web.httpPort }, [Buffer.from("GET http://[ HTTP/1.1\r\nHost: x\r\n\r\n")], 10_000);
    const response = parseFirstResponse(bytes);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body.toString())).toMatchObject({ error: "VALIDATION_FAILED", code: 1001 });
    expect(web.child.exitCode).toBeNull();
    expect(await healthz(web)).toBe(200);
  });

  it(`answers ${TLS_CASES + PLAIN_CASES} malformed requests (TLS and plain HTTP) with a 4xx or a close, never a 5xx or a hang`, async () => {
    const started = performance.now();
    const [overTls, overHttp] = [
      await fuzz({ port: web.httpsPort, ca: web.cert }, "tls", 0, TLS_CASES),
      await fuzz({ port: web.httpPort }, "plain", TLS_CASES, PLAIN_CASES),
    ];
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stdout.write(
      `socket fuzz (FUZZ_SEED=${SEED}) in ${seconds} s — TLS: ${overTls.answered} answered ${JSON.stringify(overTls.byStatus)}, ${overTls.closed} closed; ` +
        `HTTP: ${overHttp.answered} answered ${JSON.stringify(overHttp.byStatus)}, ${overHttp.closed} closed\n`,
    );
    expect([...overTls.failures, ...overHttp.failures].slice(0, 20)).toEqual([]);
    expect(web.child.exitCode, web.output().slice(-5_000)).toBeNull();
    expect(await healthz(web)).toBe(200);
    expect(uncaught(web)).toEqual([]);
  }, 240_000);
});
