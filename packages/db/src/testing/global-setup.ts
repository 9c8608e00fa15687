/**
 * Vitest global setup shared by every project that needs PostgreSQL.
 *
 * - Uses TEST_DATABASE_URL (or DATABASE_URL) when set; otherwise starts one throw-away
 *   embedded PostgreSQL cluster for the whole run (shared across projects via globalThis).
 * - Builds a template database migrated to the current schema (named after a hash of the
 *   migrations, so it is rebuilt only when they change); each test file then clones it with
 *   CREATE DATABASE … TEMPLATE, which takes milliseconds.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from "../embedded";
import { migrationsFolder, runMigrations } from "../migrate";

export interface TestDatabaseInfo {
  adminUrl: string;
  template: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    qcTestDatabase: TestDatabaseInfo;
  }
}

interface SharedCluster {
  users: number;
  info: Promise<TestDatabaseInfo>;
  embedded?: EmbeddedPostgresHandle;
  dir?: string;
}

const KEY = Symbol.for("qc.testCluster");
const registry = globalThis as unknown as Record<symbol, SharedCluster | undefined>;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function migrationsHash(): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(entry.name).update(readFileSync(path));
    }
  };
  walk(migrationsFolder);
  return hash.digest("hex").slice(0, 16);
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function prepareTemplate(adminUrl: string): Promise<string> {
  const template = `qc_template_${migrationsHash()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // Serialise template creation across concurrent runs on a shared server.
    await admin.query("select pg_advisory_lock(20803002)");
    const { rows } = await admin.query("select 1 from pg_database where datname = $1", [template]);
    if (rows.length === 0) {
      const building = `${template}_building`;
      await admin.query(`drop database if exists ${building}`);
      await admin.query(`create database ${building}`);
      await runMigrations(withDatabase(adminUrl, building));
      await admin.query(`alter database ${building} rename to ${template}`);
    }
    await admin.query("select pg_advisory_unlock(20803002)");
  } finally {
    await admin.end();
  }
  return template;
}

async function startCluster(): Promise<SharedCluster> {
  const shared: SharedCluster = { users: 0, info: Promise.resolve(null as never) };
  const external = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  shared.info = (async () => {
    let adminUrl = external;
    if (!adminUrl) {
      shared.dir = mkdtempSync(join(tmpdir(), "qc-test-pg-"));
      shared.embedded = await startEmbeddedPostgres({
        dataDir: join(shared.dir, "pg"),
        port: await freePort(),
        persistent: false,
        unsafeFast: true,
      });
      adminUrl = shared.embedded.url;
    }
    return { adminUrl, template: await prepareTemplate(adminUrl) };
  })();
  return shared;
}

export default async function setup(project: TestProject) {
  const shared = (registry[KEY] ??= await startCluster());
  shared.users += 1;
  project.provide("qcTestDatabase", await shared.info);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    registry[KEY] = undefined;
    await shared.embedded?.stop();
    if (shared.dir) rmSync(shared.dir, { recursive: true, force: true });
  };
}
