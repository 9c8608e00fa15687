import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type DatabaseHandle, type Executor } from "../client";
import {
  hasWritesAtCommit,
  pipelinedTransaction,
  TransactionRolledBack,
  writeAtCommit,
  type BuiltStatement,
} from "./pipelined-transaction";
import { useTestDatabase } from "../testing";

// pipelinedTransaction (./pipelined-transaction) on real PostgreSQL: on node-postgres in pipeline
// mode and, with vitest.neon.config.ts, on Neon's driver (which sends the same statements one by one).
describe("pipelinedTransaction", () => {
  const t = useTestDatabase();
  /** A pool of one connection: a connection lost or left in a transaction would show at once. */
  let single: DatabaseHandle;
  /** What the pooled connection was asked, in order: "sent <text>" and "answered <text>". */
  const events: string[] = [];

  beforeAll(async () => {
    await t.query("create table pipelined_rows (id int primary key, note text not null)");
    single = createDatabase({ url: t.url, poolMax: 1, applicationName: "qc-test-pipelined", pipelinedReads: 0 });
    const watched = new WeakSet<object>();
    single.pool.on("acquire", (client) => {
      if (watched.has(client)) return;
      watched.add(client);
      const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
      (client as unknown as { query: unknown }).query = (...args: unknown[]) => {
        const config = args[0] as string | { text: string };
        const text = typeof config === "string" ? config : config.text;
        events.push(`sent ${text}`);
        const result = query(...args) as Promise<unknown> | undefined;
        // pool.query passes a callback (no promise): only what transactions send is followed.
        void result?.then(
          () => events.push(`answered ${text}`),
          () => events.push(`answered ${text}`),
        );
        return result;
      };
    });
  });
  afterAll(async () => {
    await single?.close();
  });

  const rows = async () => (await t.query<{ id: number; note: string }>("select id, note from pipelined_rows order by id")).rows;
  // Worded unlike LAST, so that the two inserts tell apart in `events`.
  const insertRow = (tx: Executor, id: number, note: string) =>
    tx.execute(sql`insert into pipelined_rows (note, id) values (${note}, ${id})`);
  const LAST = "insert into pipelined_rows (id, note) values ($1, $2)";
  const lastInsert = (id: number, note: string): BuiltStatement => ({ name: "qc_test_pipelined_insert", text: LAST, values: [id, note] });
  const FIRST = "select count(*)::int as n from pipelined_rows";
  const firstRead = (tx: Executor) => tx.execute(sql.raw(FIRST));

  it("commits the work and its last statement; BEGIN leaves with the first statement and COMMIT with the last", async () => {
    events.length = 0;
    const value = await pipelinedTransaction(single.db, {
      first: firstRead,
      rest: async (tx, first) => {
        await insertRow(tx, 1, "work");
        return { value: first.rows[0], last: lastInsert(2, "last") };
      },
    });
    expect(value).toEqual({ n: 0 });
    expect(await rows()).toEqual([
      { id: 1, note: "work" },
      { id: 2, note: "last" },
    ]);
    const at = (event: string) => events.indexOf(event);
    expect(at(`answered ${LAST}`)).toBeGreaterThan(0);
    expect(at("answered commit")).toBeGreaterThan(at(`sent ${LAST}`));
    if (t.driver === "pg") {
      // In flight together: the first statement was handed over before BEGIN was answered, and
      // COMMIT before the last statement was answered.
      expect(at(`sent ${FIRST}`)).toBeLessThan(at("answered begin"));
      expect(at("sent commit")).toBeLessThan(at(`answered ${LAST}`));
    } else {
      // Neon's driver does not pipeline: BEGIN is answered before the first statement leaves.
      expect(at("answered begin")).toBeLessThan(at(`sent ${FIRST}`));
    }
  });

  it("rolls back when the work fails after writing, and the connection serves the next transaction", async () => {
    await expect(
      pipelinedTransaction(single.db, {
        first: firstRead,
        rest: async (tx) => {
          await insertRow(tx, 10, "never");
          throw new Error("refused");
        },
      }),
    ).rejects.toThrow("refused");
    await expect(
      pipelinedTransaction(single.db, { first: firstRead, rest: async (tx, first) => ({ value: first.rows[0] }) }),
    ).resolves.toEqual({ n: 2 });
    expect((await rows()).map((row) => row.id)).toEqual([1, 2]);
  });

  it("throws the first statement's error after rolling back", async () => {
    await expect(
      pipelinedTransaction(single.db, {
        first: (tx) => tx.execute(sql`select 1 / 0`),
        rest: async () => ({ value: "unreachable" }),
      }),
    ).rejects.toMatchObject({ cause: { message: "division by zero" } });
    await expect(single.query("select 1 as n")).resolves.toMatchObject({ rows: [{ n: 1 }] });
  });

  it("throws the last statement's error, and nothing the work wrote is kept", async () => {
    await expect(
      pipelinedTransaction(single.db, {
        first: firstRead,
        rest: async (tx) => {
          await insertRow(tx, 20, "rolled back with the last");
          return { value: "unreachable", last: lastInsert(1, "duplicate") };
        },
      }),
    ).rejects.toMatchObject({ code: "23505" });
    expect((await rows()).map((row) => row.id)).toEqual([1, 2]);
    // The connection is back in the pool, outside any transaction.
    const { rows: state } = await single.query<{ inTransaction: boolean }>(
      'select pg_current_xact_id_if_assigned() is not null as "inTransaction"',
    );
    expect(state).toEqual([{ inTransaction: false }]);
  });

  it("is an error, not a silent success, when the transaction failed and COMMIT rolled it back", async () => {
    // The work caught a statement's error and went on: PostgreSQL answers the COMMIT with ROLLBACK.
    const outcome = pipelinedTransaction(single.db, {
      first: firstRead,
      rest: async (tx) => {
        await insertRow(tx, 30, "lost");
        await tx.execute(sql`select 1 / 0`).catch(() => undefined);
        return { value: "looked fine" };
      },
    });
    await expect(outcome).rejects.toBeInstanceOf(TransactionRolledBack);
    expect((await rows()).map((row) => row.id)).toEqual([1, 2]);
  });

  it("gives back a connection that died before BEGIN: BEGIN's error, and the pool serves the next transaction", async () => {
    let beginFailed = false;
    for (let attempt = 0; attempt < 20 && !beginFailed; attempt++) {
      const pid = (await single.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid;
      await t.query("select pg_terminate_backend($1)", [pid]);
      // At once, before this process has read the termination: the pool hands out the dead connection.
      beginFailed = await pipelinedTransaction(single.db, { first: firstRead, rest: async (_tx, first) => ({ value: first }) }).then(
        () => false,
        () => true,
      );
    }
    expect(beginFailed, "a transaction got the dead connection").toBe(true);
    await expect(
      pipelinedTransaction(single.db, { first: firstRead, rest: async (_tx, first) => ({ value: first.rows[0] }) }),
    ).resolves.toEqual({ n: 2 });
  });

  it("inside an open transaction, runs as a savepoint of it: rolled back with it", async () => {
    await expect(
      t.db.transaction(async (outer) => {
        await pipelinedTransaction(outer, {
          first: firstRead,
          rest: async (tx) => {
            await insertRow(tx, 50, "inner");
            return { value: undefined, last: lastInsert(51, "inner last") };
          },
        });
        expect((await outer.execute(sql`select count(*)::int as n from pipelined_rows where id >= 50`)).rows).toEqual([{ n: 2 }]);
        throw new Error("outer rolls back");
      }),
    ).rejects.toThrow("outer rolls back");
    expect((await rows()).map((row) => row.id)).toEqual([1, 2]);
  });

  describe("writeAtCommit", () => {
    const AT_COMMIT = "insert into pipelined_rows (id, note) values ($1, 'at commit')";
    const atCommit = (id: number): BuiltStatement => ({ name: "qc_test_pipelined_at_commit", text: AT_COMMIT, values: [id] });

    it("sends the write with COMMIT, after the work's statements and before its last one", async () => {
      events.length = 0;
      await pipelinedTransaction(single.db, {
        first: firstRead,
        rest: async (tx) => {
          await writeAtCommit(tx, atCommit(100));
          expect(hasWritesAtCommit(tx)).toBe(true);
          // Not sent yet: the work's own statements go first.
          expect(events).not.toContain(`sent ${AT_COMMIT}`);
          await insertRow(tx, 101, "work");
          return { value: undefined, last: lastInsert(102, "last") };
        },
      });
      expect((await rows()).filter((row) => row.id >= 100)).toEqual([
        { id: 100, note: "at commit" },
        { id: 101, note: "work" },
        { id: 102, note: "last" },
      ]);
      const at = (event: string) => events.indexOf(event);
      expect(at(`sent ${AT_COMMIT}`)).toBeGreaterThan(at("answered insert into pipelined_rows (note, id) values ($1, $2)"));
      expect(at(`sent ${AT_COMMIT}`)).toBeLessThan(at(`sent ${LAST}`));
      expect(at(`sent ${LAST}`)).toBeLessThan(at("sent commit"));
    });

    it("fails the transaction when the write fails at commit: its error, nothing kept", async () => {
      // 100 exists: the write at commit violates the primary key.
      await expect(
        pipelinedTransaction(single.db, {
          first: firstRead,
          rest: async (tx) => {
            await insertRow(tx, 110, "work");
            await writeAtCommit(tx, atCommit(100));
            return { value: undefined, last: lastInsert(111, "last") };
          },
        }),
      ).rejects.toThrow(/duplicate key/);
      expect((await rows()).filter((row) => row.id >= 110)).toEqual([]);
      // The connection serves the next transaction.
      await pipelinedTransaction(single.db, { first: firstRead, rest: async () => ({ value: undefined, last: lastInsert(112, "next") }) });
      expect((await rows()).filter((row) => row.id >= 110).map((row) => row.id)).toEqual([112]);
    });

    it("in a savepoint, writes at once, and the savepoint's rollback undoes it", async () => {
      await pipelinedTransaction(single.db, {
        first: firstRead,
        rest: async (tx) => {
          await tx
            .transaction(async (savepoint) => {
              await writeAtCommit(savepoint, atCommit(120));
              expect(hasWritesAtCommit(savepoint)).toBe(false);
              const seen = await savepoint.execute(sql`select count(*)::int as n from pipelined_rows where id = 120`);
              expect(seen.rows[0]).toEqual({ n: 1 });
              throw new Error("savepoint rolls back");
            })
            .catch(() => undefined);
          expect(hasWritesAtCommit(tx)).toBe(false);
          return { value: undefined, last: lastInsert(121, "last") };
        },
      });
      expect((await rows()).filter((row) => row.id >= 120).map((row) => row.id)).toEqual([121]);
    });
  });
});
