/**
 * The dashboard's production build (`next build`), made once and reused while its sources are
 * unchanged: `./qc start` and the browser tests call `ensureDashboardBuild()` before starting the
 * web server. Node only; never imported by a page.
 *
 * The pages import nothing of the service at run time (only types from @qc/api, the helpers of
 * this folder and the dependency-free @qc/domain), so what the build depends on is: apps/web/app,
 * this folder, packages/domain, the Next and TypeScript configuration, the package manifest and
 * the lockfile. Their hash is stored beside the
 * build (`.next/qc-source-hash`); a build whose hash matches is reused.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const WEB_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const ROOT = resolve(WEB_DIR, "../..");
const DIST_DIR = join(WEB_DIR, ".next");
const HASH_FILE = join(DIST_DIR, "qc-source-hash");
// Outside the work tree (nothing to ignore or commit by mistake), one per checkout.
const LOCK_FILE = join(tmpdir(), `qc-dashboard-build-${createHash("sha256").update(WEB_DIR).digest("hex").slice(0, 12)}.lock`);

const SOURCE_DIRS = [join(WEB_DIR, "app"), join(WEB_DIR, "src/dashboard"), join(ROOT, "packages/domain/src")];
const SOURCE_FILES = [
  join(WEB_DIR, "next.config.ts"),
  join(WEB_DIR, "package.json"),
  join(WEB_DIR, "tsconfig.json"),
  join(ROOT, "tsconfig.base.json"),
  join(ROOT, "pnpm-lock.yaml"),
];

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.isFile() && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** SHA-256 over the path and content of every file the build reads, in a fixed order. */
export function dashboardSourceHash(): string {
  const hash = createHash("sha256");
  const files = [...SOURCE_DIRS.flatMap(filesUnder), ...SOURCE_FILES.filter((file) => existsSync(file))].sort();
  for (const file of files) {
    hash.update(relative(ROOT, file));
    hash.update("\0");
    hash.update(readFileSync(file));
    hash.update("\0");
  }
  return hash.digest("hex");
}

export function isDashboardBuildCurrent(hash = dashboardSourceHash()): boolean {
  return existsSync(join(DIST_DIR, "BUILD_ID")) && existsSync(HASH_FILE) && readFileSync(HASH_FILE, "utf8").trim() === hash;
}

export interface EnsureBuildResult {
  hash: string;
  /** false when a current build was reused. */
  built: boolean;
}

/**
 * Builds the dashboard unless the build beside it was made from the same sources. Concurrent
 * callers (a test run and `./qc start`) wait for one another through a lock file, so the
 * build directory is never written twice at once.
 */
export async function ensureDashboardBuild(options: {
  /** The environment `next build` runs in (the caller's: this module reads no configuration). */
  env: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  timeoutMs?: number;
}): Promise<EnsureBuildResult> {
  const log = options.log ?? (() => {});
  const hash = dashboardSourceHash();
  if (isDashboardBuildCurrent(hash)) return { hash, built: false };
  const release = await acquireLock(options.timeoutMs ?? 15 * 60_000);
  try {
    const current = dashboardSourceHash();
    if (isDashboardBuildCurrent(current)) return { hash: current, built: false };
    log("building the dashboard (next build); reused until its sources change");
    rmSync(HASH_FILE, { force: true });
    await runNextBuild(options.env, log);
    mkdirSync(DIST_DIR, { recursive: true });
    writeFileSync(HASH_FILE, `${current}\n`);
    return { hash: current, built: true };
  } finally {
    release();
  }
}

function runNextBuild(baseEnv: NodeJS.ProcessEnv, log: (line: string) => void): Promise<void> {
  const nextBin = createRequire(join(WEB_DIR, "package.json")).resolve("next/dist/bin/next");
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [nextBin, "build"], {
      cwd: WEB_DIR,
      // NODE_ENV of the caller (vitest sets "test") must not leak into the build.
      env: { ...baseEnv, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of chunk.toString().split("\n")) if (line.trim()) log(line.trimEnd());
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", fail);
    child.on("exit", (code) => (code === 0 ? done() : fail(new Error(`next build failed (exit ${code}):\n${output.slice(-4000)}`))));
  });
}

async function acquireLock(timeoutMs: number): Promise<() => void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      writeFileSync(LOCK_FILE, String(process.pid), { flag: "wx" });
      return () => rmSync(LOCK_FILE, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (lockIsStale()) {
      rmSync(LOCK_FILE, { force: true });
      continue;
    }
    if (Date.now() > deadline)
      throw new Error(`another dashboard build holds ${LOCK_FILE}; gave up after ${Math.round(timeoutMs / 1000)} s`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/** A lock whose process is gone (killed mid-build) is stale. */
function lockIsStale(): boolean {
  try {
    const pid = Number(readFileSync(LOCK_FILE, "utf8"));
    if (!Number.isInteger(pid) || pid <= 0) return Date.now() - statSync(LOCK_FILE).mtimeMs > 60_000;
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
