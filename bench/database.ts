import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, runMigrations, sql } from "@qc/db";
import { ensureDatabaseExists, startEmbeddedPostgres, type EmbeddedPostgresHandle } from "@qc/db/embedded";
import { stopOnSignal } from "./stop-on-signal";

export function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
  });
}

/**
 * A migrated database for one benchmark run: on DATABASE_URL when set, otherwise on a
 * throw-away embedded PostgreSQL. `dispose()` drops the run's database (DATABASE_URL) or stops
 * the embedded server, and removes `work`; an
 * interrupt (SIGINT, SIGTERM) or a failure while preparing does the same.
 */
export async function benchDatabase(prefix: string): Promise<{ url: string; work: string; dispose(): Promise<void> }> {
  const work = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const adminUrl = process.env.DATABASE_URL;
  const starting: Promise<EmbeddedPostgresHandle | undefined> = adminUrl
    ? Promise.resolve(undefined)
    : freePort().then((port) => startEmbeddedPostgres({ dataDir: join(work, "pg"), port, persistent: false, unsafeFast: true }));
  const name = `${prefix.replace(/-/g, "_")}_${randomBytes(4).toString("hex")}`;
  let created = false;
  let stopped: Promise<void> | undefined;
  // Once, whoever asks first (the benchmark's finally or a signal arriving at the same time).
  const stop = () =>
    (stopped ??= (async () => {
      const pg = await starting.catch(() => undefined);
      // On a shared server (DATABASE_URL) the run's database goes with it; an embedded one goes whole.
      if (adminUrl && created)
        await dropDatabase(adminUrl, name).catch((error: unknown) =>
          process.stderr.write(`[bench] could not drop ${name}: ${String(error)}\n`),
        );
      await pg?.stop();
      rmSync(work, { recursive: true, force: true });
    })());
  const release = stopOnSignal(stop);
  try {
    const server = await starting;
    if (server) process.stderr.write(`[bench] embedded PostgreSQL on port ${server.port} (data in ${join(work, "pg")})\n`);
    const url = await ensureDatabaseExists(adminUrl ?? server!.url, name);
    created = true;
    await runMigrations(url);
    return {
      url,
      work,
      dispose: async () => {
        await stop();
        release();
      },
    };
  } catch (error) {
    await stop();
    release();
    throw error;
  }
}

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = createDatabase({ url: adminUrl, poolMax: 1 });
  try {
    await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
  } finally {
    await admin.close();
  }
}
