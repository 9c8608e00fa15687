import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { createDatabase, type DatabaseHandle } from "../client";
import { withDatabase } from "./global-setup";

export { freePort, withDatabase } from "./global-setup";
export { insertTransaction } from "./rows";

export interface TestDatabase extends DatabaseHandle {
  url: string;
  name: string;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject("qcTestDatabase").adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh, migrated database cloned from the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const { adminUrl, template } = inject("qcTestDatabase");
  const name = `qc_test_${randomBytes(6).toString("hex")}`;
  await admin((c) => c.query(`create database ${name} template ${template}`));
  const url = withDatabase(adminUrl, name);
  const handle = createDatabase({ url, applicationName: "qc-test" });
  return {
    ...handle,
    url,
    name,
    drop: async () => {
      await handle.close();
      await admin((c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/** An empty database (no migrations): for testing the migrator itself. */
export async function createEmptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `qc_empty_${randomBytes(6).toString("hex")}`;
  await admin((c) => c.query(`create database ${name}`));
  return {
    url: withDatabase(inject("qcTestDatabase").adminUrl, name),
    drop: () => admin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}

/** Registers a per-file database: `const t = useTestDatabase(); … t.db` inside tests. */
export function useTestDatabase(): TestDatabase {
  let current: TestDatabase | undefined;
  beforeAll(async () => {
    current = await createTestDatabase();
  });
  afterAll(async () => {
    await current?.drop();
  });
  return new Proxy({} as TestDatabase, {
    get(_target, property) {
      if (!current) throw new Error("useTestDatabase(): the database exists only inside tests");
      return current[property as keyof TestDatabase];
    },
  });
}

/**
 * The names of the prepared statements node-postgres sends while recording, on every connection
 * of this process (the pools' and the pipelined reads'): a statement sent by name is a prepared
 * one (../queries/prepared), so its name tells which query made the round trip. `restore()` puts
 * node-postgres back.
 */
export function recordPreparedStatements(): { during(call: () => Promise<unknown>): Promise<string[]>; restore(): void } {
  type Query = (this: unknown, ...args: unknown[]) => unknown;
  const prototype = pg.Client.prototype as unknown as { query: Query };
  const original = prototype.query;
  let names: string[] | undefined;
  prototype.query = function query(this: unknown, ...args: unknown[]) {
    const first = args[0] as { name?: string } | string | undefined;
    if (names && typeof first === "object" && first?.name) names.push(first.name);
    return original.apply(this, args);
  };
  return {
    async during(call) {
      const recorded: string[] = [];
      names = recorded;
      try {
        await call().catch(() => undefined);
      } finally {
        names = undefined;
      }
      return recorded;
    },
    restore() {
      prototype.query = original;
    },
  };
}
