import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSecret } from "./load-secret";

const hex32 = (text: string) => {
  if (!/^[0-9a-f]{64}$/i.test(text)) throw new Error("not 32 bytes of hex");
  return Buffer.from(text, "hex");
};
const options = (dataDir: string) => ({ name: "TEST_SECRET", file: "test-secret", parse: hex32, dataDir, production: false });

describe("loadSecret", () => {
  it("uses the configured value, and refuses to run without one in production", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "qc-secret-"));
    expect(loadSecret({ ...options(dataDir), configured: "ab".repeat(32) }).toString("hex")).toBe("ab".repeat(32));
    expect(() => loadSecret({ ...options(dataDir), production: true })).toThrow("TEST_SECRET is required in production");
    expect(() => loadSecret({ ...options(dataDir), configured: "short" })).toThrow("not 32 bytes of hex");
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it("generates a development value once, private to the user, and reuses it", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "qc-secret-"));
    const first = loadSecret(options(dataDir));
    expect(first).toHaveLength(32);
    expect(loadSecret(options(dataDir)).equals(first)).toBe(true);
    const file = join(dataDir, "secrets", "test-secret");
    expect(readFileSync(file, "utf8")).toBe(first.toString("hex"));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dataDir, "secrets"))).toEqual(["test-secret"]);
  });

  it("gives processes starting at the same moment the same value", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "qc-secret-"));
    const module = new URL("./load-secret.ts", import.meta.url).pathname;
    const program = `import { loadSecret } from ${JSON.stringify(module)};
      const key = loadSecret({ name: "T", file: "shared", dataDir: ${JSON.stringify(dataDir)}, production: false, parse: (t) => Buffer.from(t, "hex") });
      process.stdout.write(key.toString("hex"));`;
    const run = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", program], {
          stdio: ["ignore", "pipe", "inherit"],
        });
        let out = "";
        child.stdout.on("data", (chunk) => (out += chunk));
        child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}`))));
      });
    const values = await Promise.all(Array.from({ length: 6 }, run));
    expect(new Set(values).size).toBe(1);
    expect(values[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(readdirSync(join(dataDir, "secrets"))).toEqual(["shared"]);
  });
});
