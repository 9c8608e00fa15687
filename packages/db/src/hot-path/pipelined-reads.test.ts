import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, pipelinedReadHandle, type DatabaseHandle } from "../client";
import { PipelinedReads } from "./pipelined-reads";
import { findVaultRow } from "../queries/vaults";
import { tenants, vaults } from "../schema";
import { freePort, useTestDatabase } from "../testing";

// The request path's standalone reads on shared pipelined connections (./pipelined-reads), on a
// real PostgreSQL. The class is node-postgres's; under vitest.neon.config.ts the handle has no
// pipelined reads (Neon's client has no pipeline mode) and `defineRead` uses the pool.
describe("pipelined reads", () => {
  const t = useTestDatabase();
  const opened: PipelinedReads[] = [];
  const reads = (
    options: {
      connections?: number;
      idleMillis?: number;
      connectionString?: string;
      applicationName?: string;
      connectionTimeoutMillis?: number;
    } = {},
  ) => {
    const created = new PipelinedReads({
      connectionString: options.connectionString ?? t.url,
      connections: options.connections ?? 2,
      applicationName: options.applicationName ?? "qc-test-pipelined",
      connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5_000,
      idleMillis: options.idleMillis,
    });
    opened.push(created);
    return created;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((r) => r.end()));
  });
  const backends = async (applicationName: string) =>
    (
      await t.query<{ pid: number }>("select pid from pg_stat_activity where application_name = $1 and datname = current_database()", [
        applicationName,
      ])
    ).rows.map((row) => row.pid);

  it("answers every caller with its own result when many reads are in flight on two connections", async () => {
    const r = reads({ applicationName: "qc-test-pipelined-many" });
    const numbers = Array.from({ length: 300 }, (_, i) => i);
    const results = await Promise.all(
      numbers.map((n) => r.query({ name: "qc_test_echo", text: "select $1::int as n, pg_backend_pid() as pid" }, [n])),
    );
    expect(results.map((result) => result.rows[0].n)).toEqual(numbers);
    // Spread over both connections, and no more than two backends were ever used.
    const pids = new Set(results.map((result) => result.rows[0].pid));
    expect(pids.size).toBe(2);
    expect(r.openConnections).toBe(2);
    expect((await backends("qc-test-pipelined-many")).sort()).toEqual([...pids].sort());
  });

  it("sends the reads queued in one turn of the event loop in one socket write", async () => {
    const r = reads({ connections: 1 });
    await r.query({ text: "select 1" });
    // The connection's socket, as node-postgres holds it: count the writes that reach it.
    const client = (r as unknown as { slots: { client: { connection: { stream: { _writev?: unknown; _write?: unknown } } } }[] }).slots[0]!
      .client;
    const socket = client.connection.stream as Record<"_writev" | "_write", (...args: unknown[]) => unknown>;
    let writes = 0;
    for (const method of ["_writev", "_write"] as const) {
      const original = socket[method];
      socket[method] = function (this: unknown, ...args: unknown[]) {
        writes++;
        return original.apply(this, args);
      };
    }
    // Queued from separate callbacks of the same turn, as requests arriving together are.
    const queued = await new Promise<Promise<unknown>[]>((resolve) => {
      const list: Promise<unknown>[] = [];
      for (let i = 0; i < 20; i++) setImmediate(() => list.push(r.query({ name: "qc_test_echo_one", text: "select $1::int as n" }, [i])));
      setImmediate(() => resolve(list));
    });
    const results = (await Promise.all(queued)) as { rows: { n: number }[] }[];
    expect(results.map((result) => result.rows[0]!.n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(writes).toBe(1);
  });

  it("fails a read that errors alone: the reads written around it are answered", async () => {
    const r = reads({ connections: 1 });
    const outcomes = await Promise.allSettled([
      r.query({ text: "select 1 as n" }),
      r.query({ text: "select 1 / 0 as n" }),
      r.query({ text: "select 'not a uuid'::uuid as n" }),
      r.query({ text: "select 4 as n" }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "rejected", "fulfilled"]);
    expect((outcomes[0] as PromiseFulfilledResult<{ rows: { n: number }[] }>).value.rows[0]!.n).toBe(1);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: "22012" });
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ code: "22P02" });
    expect((outcomes[3] as PromiseFulfilledResult<{ rows: { n: number }[] }>).value.rows[0]!.n).toBe(4);
    expect((await r.query({ text: "select 5 as n" })).rows[0].n).toBe(5);
  });

  it("fails the reads in flight on a terminated connection, and the next read opens a new one", async () => {
    const r = reads({ connections: 1, applicationName: "qc-test-pipelined-kill" });
    const first = (await r.query({ text: "select pg_backend_pid() as pid" })).rows[0].pid as number;
    // A read that is still running when its backend is terminated fails, as on a pooled connection.
    const inFlight = r.query({ text: "select pg_sleep(5)" });
    await t.query("select pg_terminate_backend($1)", [first]);
    await expect(inFlight).rejects.toThrow();
    const second = (await r.query({ text: "select pg_backend_pid() as pid" })).rows[0].pid as number;
    expect(second).not.toBe(first);
    expect(await backends("qc-test-pipelined-kill")).toEqual([second]);
  });

  it("fails every read when the server cannot be reached, and keeps no connection", async () => {
    const unreachable = new URL(t.url);
    unreachable.port = String(await freePort());
    const r = reads({ connectionString: unreachable.toString() });
    // Queued before the connect failed: each is answered with the failure, none is left waiting.
    const outcomes = await Promise.allSettled([
      r.query({ text: "select 1" }),
      r.query({ text: "select 2" }),
      r.query({ text: "select 3" }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(r.openConnections).toBe(0);
    // The next read tries a new connection, and fails the same way.
    await expect(r.query({ text: "select 4" })).rejects.toThrow();
    expect(r.openConnections).toBe(0);
  });

  it("closes a connection left idle, and opens one again for the next read", async () => {
    const r = reads({ connections: 1, idleMillis: 200, applicationName: "qc-test-pipelined-idle" });
    await r.query({ text: "select 1" });
    expect(await backends("qc-test-pipelined-idle")).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(r.openConnections).toBe(0);
    await expect.poll(() => backends("qc-test-pipelined-idle")).toHaveLength(0);
    expect((await r.query({ text: "select 2 as n" })).rows[0].n).toBe(2);
  });

  it("refuses reads once ended, and leaves no connection behind", async () => {
    const r = reads({ applicationName: "qc-test-pipelined-end" });
    await Promise.all([r.query({ text: "select 1" }), r.query({ text: "select 1" })]);
    await r.end();
    await expect(r.query({ text: "select 1" })).rejects.toThrow(/closed/);
    await expect.poll(() => backends("qc-test-pipelined-end")).toHaveLength(0);
  });

  it("ends even when a read on the wire is never answered: the connection is cut and the read fails", { timeout: 30_000 }, async () => {
    const r = reads({ connections: 1, applicationName: "qc-test-pipelined-stuck", connectionTimeoutMillis: 500 });
    await r.query({ text: "select 1" });
    const [pid] = await backends("qc-test-pipelined-stuck");
    // A read that holds the connection's answers far longer than the test may wait.
    const stuck = r.query({ text: "select pg_sleep(600)" });
    const outcome = stuck.then(
      () => "answered",
      () => "failed",
    );
    await expect
      .poll(
        async () => (await t.query("select 1 from pg_stat_activity where pid = $1 and query like 'select pg_sleep%'", [pid!])).rows.length,
      )
      .toBe(1);
    await r.end();
    expect(await outcome).toBe("failed");
    await t.query("select pg_terminate_backend($1)", [pid!]);
  });

  describe("through a database handle (defineRead)", () => {
    let handle: DatabaseHandle;
    let tenantId: string;
    let vaultId: string;
    beforeAll(async () => {
      handle = createDatabase({ url: t.url, applicationName: "qc-test-handle" });
      const [tenant] = await t.db.insert(tenants).values({ name: "A" }).returning();
      tenantId = tenant!.id;
      const [vault] = await t.db.insert(vaults).values({ tenantId, name: "hot", networkCode: "QUANTUM_SANDBOX", metadata: {} }).returning();
      vaultId = vault!.id;
    });
    afterAll(async () => {
      await handle?.close();
    });

    it("runs the vault read on the handle's pipelined connections (node-postgres), in the transaction inside one", async () => {
      if (handle.driver === "neon") {
        expect(pipelinedReadHandle(handle.db)).toBeUndefined();
        return;
      }
      const rows = await Promise.all(Array.from({ length: 20 }, () => findVaultRow(handle.db, { tenantId, vaultId })));
      expect(rows.every((row) => row?.id === vaultId)).toBe(true);
      const { rows: prepared } = await t.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where application_name = 'qc-test-handle/reads' and datname = current_database()",
      );
      expect(prepared[0]!.n).toBeGreaterThanOrEqual(1);
      // Inside a transaction the read is the transaction's: it sees the transaction's own write.
      await handle.db.transaction(async (tx) => {
        const [mine] = await tx
          .insert(vaults)
          .values({ tenantId, name: "uncommitted", networkCode: "QUANTUM_SANDBOX", metadata: {} })
          .returning();
        expect((await findVaultRow(tx, { tenantId, vaultId: mine!.id }))?.name).toBe("uncommitted");
        expect(await findVaultRow(handle.db, { tenantId, vaultId: mine!.id })).toBeUndefined();
      });
    });

    it("closes the pipelined connections with the handle", async () => {
      const other = createDatabase({ url: t.url, applicationName: "qc-test-close" });
      await findVaultRow(other.db, { tenantId, vaultId });
      await other.close();
      await expect.poll(() => backends("qc-test-close/reads")).toHaveLength(0);
    });
  });
});
