import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKeyFixture, createTenantFixture } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeRun, REPO_ROOT, runBash } from "./doc-runner";
import { startTestServer, TEST_PEPPER, type TestServer } from "./harness";

/**
 * The SDK against the real API, in a child process as a customer runs it (trusting the stack's
 * certificate through NODE_EXTRA_CA_CERTS). A `fetch` wrapper records what went over the wire,
 * so the pages fetched and the X-Request-ID of the error answer are checked, not assumed.
 * It prints one JSON line.
 */
const SCRIPT = `import { createClient, QuantumCustodyError } from "@quantum-custody/sdk";

const wire = [];
const recordingFetch = async (input, init) => {
  const response = await fetch(input, init);
  wire.push({ method: init.method, url: String(input), status: response.status, requestId: response.headers.get("x-request-id") });
  return response;
};
const qc = createClient({ baseUrl: process.env.QC_URL, apiKey: process.env.QC_API_KEY, fetch: recordingFetch });

const created = [];
for (let i = 1; i <= 7; i++) {
  const vault = await qc.post("/v1/vault/accounts", { body: { name: \`Vault \${i}\`, networkCode: "QUANTUM_SANDBOX" } });
  created.push(vault.id);
}
const replayed = await qc.post("/v1/vault/accounts", {
  body: { name: "Vault 8", networkCode: "QUANTUM_SANDBOX" },
  idempotencyKey: "sdk-client-replay",
});
const again = await qc.post("/v1/vault/accounts", {
  body: { name: "Vault 8", networkCode: "QUANTUM_SANDBOX" },
  idempotencyKey: "sdk-client-replay",
});

wire.length = 0;
const paged = [];
for await (const vault of qc.paginate("/v1/vault/accounts", { query: { limit: 2, networkCode: "QUANTUM_SANDBOX" } })) {
  if (vault.id !== replayed.id) paged.push(vault.id);
}
const pages = wire.filter((w) => w.method === "GET").map((w) => new URL(w.url).searchParams.get("cursor") !== null);

const errors = [];
for (const call of [
  () => qc.get("/v1/transactions/{transactionId}", { path: { transactionId: "01940000-0000-7000-8000-000000000000" } }),
  () => qc.post("/v1/vault/accounts", { body: { name: "", networkCode: "QUANTUM_SANDBOX" } }),
]) {
  wire.length = 0;
  try {
    await call();
    errors.push("no error");
  } catch (error) {
    if (!(error instanceof QuantumCustodyError)) throw error;
    errors.push({
      name: error.name,
      error: error.error,
      code: error.code,
      status: error.status,
      message: error.message,
      requestId: error.requestId,
      wireRequestId: wire.at(-1).requestId,
      attempts: wire.length,
      fields: error.details?.fields ?? null,
    });
  }
}
console.log(JSON.stringify({ created, replayed: replayed.id, again: again.id, paged, pages, errors }));
`;

describe("the SDK against the real API", () => {
  const t = useTestDatabase();
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ database: t });
  });
  afterAll(() => server?.close());

  it("pages through 8 vaults 2 at a time, replays an idempotent create, and surfaces API errors as QuantumCustodyError", async () => {
    const tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const key = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, ["write"]);
    const dir = mkdtempSync(join(tmpdir(), "qc-sdk-client-"));
    const ca = join(dir, "localhost-cert.pem");
    writeFileSync(ca, server.tls.cert);
    const script = join(dir, "client.mts");
    writeFileSync(script, SCRIPT.replaceAll('"@quantum-custody/sdk"', JSON.stringify(join(REPO_ROOT, "packages/sdk/src/index.ts"))));

    const run = await runBash(`node --import tsx ${JSON.stringify(script)}`, {
      env: { QC_URL: `https://127.0.0.1:${server.httpsPort}`, QC_API_KEY: `${key.keyId}:${key.secret}`, NODE_EXTRA_CA_CERTS: ca },
      timeoutMs: 120_000,
    });
    expect(run.code, describeRun(run)).toBe(0);
    const out = JSON.parse(run.stdout.trim().split("\n").at(-1)!);

    // Idempotency: the same key answered the same vault, not a second one.
    expect(out.again).toBe(out.replayed);
    // 8 vaults (the replayed one skipped in the count) at 2 a page: 4 pages, the first without a cursor, each
    // vault once, newest first.
    expect(out.pages).toEqual([false, true, true, true]);
    expect(out.paged).toEqual([...out.created].reverse());

    const [notFound, invalid] = out.errors;
    expect(notFound).toMatchObject({ name: "QuantumCustodyError", error: "NOT_FOUND", code: 1030, status: 404, attempts: 1 });
    expect(notFound.message).toMatch(/^NOT_FOUND \(404\): .+ \[request .+\]$/);
    expect(notFound.requestId).toBeTruthy();
    expect(notFound.requestId).toBe(notFound.wireRequestId);
    expect(invalid).toMatchObject({ error: "VALIDATION_FAILED", code: 1001, status: 400, attempts: 1 });
    expect(invalid.requestId).toBe(invalid.wireRequestId);
    expect(JSON.stringify(invalid.fields)).toContain("name");
  }, 180_000);
});
