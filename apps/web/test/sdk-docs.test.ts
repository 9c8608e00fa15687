import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createKeyFixture, createTenantFixture } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, runBash } from "./doc-runner";
import { startTestServer, TEST_PEPPER, type TestServer } from "./harness";

/** The ```ts blocks of docs/sdk.md, in order. */
function typescriptBlocks(): string[] {
  const markdown = readFileSync(fileURLToPath(new URL("../../../docs/sdk.md", import.meta.url)), "utf8");
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

describe("docs/sdk.md, executed", () => {
  const t = useTestDatabase();
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ database: t });
  });
  afterAll(() => server?.close());

  it("runs every example against the API: a create, a read, pages of one item, a typed error", async () => {
    const blocks = typescriptBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const key = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, ["write"]);
    const dir = mkdtempSync(join(tmpdir(), "qc-sdk-docs-"));
    const ca = join(dir, "localhost-cert.pem");
    writeFileSync(ca, server.tls.cert);
    // The reader installs the package; here it is the workspace's source.
    const sdk = join(REPO_ROOT, "packages/sdk/src/index.ts");
    const script = join(dir, "examples.mts");
    writeFileSync(script, blocks.join("\n").replaceAll('"@quantum-custody/sdk"', JSON.stringify(sdk)));

    const run = await runBash(`node --import tsx ${JSON.stringify(script)}`, {
      env: {
        QC_URL: `https://127.0.0.1:${server.httpsPort}`,
        QC_API_KEY: `${key.keyId}:${key.secret}`,
        NODE_EXTRA_CA_CERTS: ca,
      },
      timeoutMs: 60_000,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split("\n")).toEqual([
      "vault Treasury QUANTUM_SANDBOX",
      "vaults 2",
      "error 404 NOT_FOUND 1030 with requestId",
    ]);
  });
});
