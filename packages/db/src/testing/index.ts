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
 * The statements node-postgres sends while recording, on every connection of this process (the
 * pools' and the pipelined reads'), each as its name (a prepared one) or its text; transaction
 * control (BEGIN, COMMIT, ROLLBACK, savepoints) is left out. For tests that count what a call
 * costs the database. `restore()` puts node-postgres back.
 */
export function recordStatements(): { during(call: () => Promise<unknown>): Promise<string[]>; restore(): void } {
  type Query = (this: unknown, ...args: unknown[]) => unknown;
  const prototype = pg.Client.prototype as unknown as { query: Query };
  const original = prototype.query;
  let names: string[] | undefined;
  prototype.query = function query(this: unknown, ...args: unknown[]) {
    const first = args[0] as { name?: string; text?: string } | string | undefined;
    const statement = typeof first === "string" ? first : (first?.name ?? first?.text);
    if (names && statement && !/^\s*(begin|commit|rollback|savepoint|release)\b/i.test(statement)) names.push(statement);
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
