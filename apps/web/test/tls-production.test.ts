import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadTlsMaterial } from "../src/tls";

describe("TLS material", () => {
  it("refuses the self-signed fallback in production, and makes no certificate", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "qc-tls-production-"));
    try {
      await expect(loadTlsMaterial({ dataDir, production: true })).rejects.toThrow(
        /TLS_CERT_FILE and TLS_KEY_FILE are required in production/,
      );
      expect(readdirSync(dataDir)).toEqual([]);
      await expect(loadTlsMaterial({ dataDir, certFile: join(dataDir, "cert.pem") })).rejects.toThrow(/must be set together/);
      // Development keeps the self-signed certificate for localhost.
      expect(await loadTlsMaterial({ dataDir, production: false })).toMatchObject({ selfSigned: true });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
