import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";

const run = promisify(execFile);
const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const REPO_ROOT = join(PACKAGE_DIR, "../..");
const TSC = join(REPO_ROOT, "node_modules/.bin/tsc");

/**
 * The project's pnpm: `./qc` puts it on PATH (a global one of the pinned version, else .tools/);
 * .tools/ is also tried directly so that a bare `vitest run` finds it after a first `./qc`.
 */
function pnpm(): string {
  const local = join(REPO_ROOT, ".tools/node_modules/.bin/pnpm");
  return existsSync(local) ? local : "pnpm";
}

/**
 * An empty customer project's program: the client, its typed answers and errors, and one misuse
 * that must not compile (were the packed `.d.ts` not found, everything would be `any` and the
 * unused `@ts-expect-error` would fail the compile). Run, it calls a real local server.
 */
const MAIN_TS = `import { createClient, QuantumCustodyError, verifyWebhook, type SuccessBody } from "@quantum-custody/sdk";

declare const process: { argv: string[] }; // no @types/node: the SDK's .d.ts must not need it

type Vault = SuccessBody<"/v1/vault/accounts/{vaultAccountId}", "get">;
const qc = createClient({ baseUrl: process.argv[2]!, apiKey: "key:secret", retry: { maxAttempts: 1 } });

// @ts-expect-error a route the document does not have (never called)
export const misuse = () => qc.get("/v1/vaults");

async function main(): Promise<void> {
  try {
    const vault: Vault = await qc.get("/v1/vault/accounts/{vaultAccountId}", { path: { vaultAccountId: "v-1" } });
    console.log(vault.name.toUpperCase());
  } catch (error) {
    if (!(error instanceof QuantumCustodyError)) throw error;
    console.log(\`\${error.status} \${error.error} \${error.code} \${error.requestId}\`);
  }
  console.log(typeof verifyWebhook);
}
await main();
`;

/** What the customer's tsconfig asks: ESM under NodeNext, strict, and the SDK's own .d.ts checked (no skipLibCheck, no @types/node). */
const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2022", "DOM"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    skipLibCheck: false,
    types: [],
    outDir: "out",
  },
  include: ["main.ts"],
};

const dir = mkdtempSync(join(tmpdir(), "qc-sdk-pack-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("the packed tarball installs in an empty project, type-checks under NodeNext/strict and runs", async () => {
  // Build and pack as a release would (pnpm pack applies publishConfig and rewrites workspace: ranges).
  await run(pnpm(), ["run", "build"], { cwd: PACKAGE_DIR });
  await run(pnpm(), ["pack", "--pack-destination", dir], { cwd: PACKAGE_DIR });
  const tarball = readdirSync(dir).find((name) => name.endsWith(".tgz"));
  expect(tarball).toMatch(/^quantum-custody-sdk-\d+\.\d+\.\d+\.tgz$/);
  const { stdout: listing } = await run("tar", ["tzf", join(dir, tarball!)]);
  expect(listing).toContain("package/dist/index.js");
  expect(listing).toContain("package/dist/index.d.ts");
  expect(listing).not.toContain("package/src/");
  expect(listing).not.toContain("package/test/");
  const { stdout: manifest } = await run("tar", ["xzOf", join(dir, tarball!), "package/package.json"]);
  expect(manifest).not.toContain("workspace:");
  expect(JSON.parse(manifest).exports["."]).toEqual({ types: "./dist/index.d.ts", default: "./dist/index.js" });

  const project = join(dir, "project");
  rmSync(project, { recursive: true, force: true });
  await run("mkdir", ["-p", project]);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "empty", private: true, type: "module" }));
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify(TSCONFIG));
  writeFileSync(join(project, "main.ts"), MAIN_TS);
  // npm, as a customer installs it; the runtime dependencies come from npm's cache when there.
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", join(dir, tarball!)], { cwd: project });
  await run(TSC, ["-p", "."], { cwd: project }).catch((error: { stdout?: string }) => {
    throw new Error(`tsc failed in the empty project:\n${error.stdout}`);
  });

  // The emitted program, run by node against a real server answering the contract's error body.
  const server = createServer((_req, res) => {
    res.writeHead(404, { "content-type": "application/json", "x-request-id": "req-pack" });
    res.end(JSON.stringify({ error: "NOT_FOUND", code: 1030, message: "not found", requestId: "req-pack" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { stdout } = await run(process.execPath, ["out/main.js", url], { cwd: project });
    expect(stdout.trim().split("\n")).toEqual(["404 NOT_FOUND 1030 req-pack", "function"]);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}, 240_000);
