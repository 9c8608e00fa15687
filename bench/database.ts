import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runMigrations } from "@qc/db";
import { ensureDatabaseExists, startEmbeddedPostgres } from "@qc/db/embedded";

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
 * throw-away embedded PostgreSQL. `dispose()` stops the embedded server and removes `work`.
 */
export async function benchDatabase(prefix: string): Promise<{ url: string; work: string; dispose(): Promise<void> }> {
  const work = mkdtempSync(join(tmpdir(), `${prefix}-`));
  let stop: (() => Promise<void>) | undefined;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const pg = await startEmbeddedPostgres({ dataDir: join(work, "pg"), port: await freePort(), persistent: false, unsafeFast: true });
    stop = pg.stop;
    adminUrl = pg.url;
  }
  const url = await ensureDatabaseExists(adminUrl, `${prefix.replace(/-/g, "_")}_${randomBytes(4).toString("hex")}`);
  await runMigrations(url);
  return {
    url,
    work,
    dispose: async () => {
      await stop?.();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
