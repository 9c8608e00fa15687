import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, driverConnection, type DatabaseHandle, type Executor } from "../client";
import { insertAuditEvents } from "../queries/audit";
import { insertOutboxEvent } from "../queries/events";
import { insertIdempotencyKey, lockIdempotencyKey } from "../queries/idempotency";
import { updateWhereStatus } from "../queries/status";
import { lockTransactionStatus } from "../queries/transactions";
import { claimUndispatchedOutboxEvents, listEnabledWebhookEndpoints, markOutboxEventsDispatched } from "../queries/webhooks";
import { auditEvents, tenants, vaults } from "../schema";
import { idempotencyKeys } from "../schema/transfers";
import { useTestDatabase } from "../testing";
import { rowValues } from "./columns";
import { defineQuery, defineStatement } from "./define-query";
import { jobExecutor, jobStatementName } from "./job-executor";
import { executeNamedByText, statementNameOfText } from "./statement-names";

describe("defineQuery's registry", () => {
  it("refuses a second definition under a name already taken, whatever its text", () => {
    defineQuery("qc_test_registry_once", (db) => db.select().from(tenants));
    expect(() => defineQuery("qc_test_registry_once", (db) => db.select().from(vaults))).toThrow(/qc_test_registry_once is defined twice/);
    expect(() => defineStatement("qc_test_registry_once", () => sql`select 1`)).toThrow(/defined twice/);
    // The queries' own names are taken at import: a copy-pasted one fails the same way.
    expect(() => defineQuery("qc_find_transaction", (db) => db.select().from(tenants))).toThrow(/qc_find_transaction is defined twice/);
  });
});

// Prepared statements inside transactions (./define-query): built once per pooled connection and
// reused by the next transaction on it, always inside the transaction that holds it. These run
// on node-postgres and, with vitest.neon.config.ts, on Neon's driver.
describe("prepared statements in transactions", () => {
  const t = useTestDatabase();
  /** One connection only, so consecutive transactions share it. */
  let single: DatabaseHandle;
  let tenantId: string;

  beforeAll(async () => {
    single = createDatabase({ url: t.url, poolMax: 1, applicationName: "qc-test-single" });
    const [tenant] = await t.db.insert(tenants).values({ name: "A" }).returning();
    tenantId = tenant!.id;
  });
  afterAll(async () => {
    await single?.close();
  });

  const builds = { count: 0 };
  const tenantNameQuery = defineQuery("qc_test_tenant_name", (db) => {
    builds.count++;
    return db
      .select({ name: tenants.name })
      .from(tenants)
      .where(eq(tenants.id, sql.placeholder("id")));
  });
  const tenantName = (db: Executor) => tenantNameQuery.on(db);

  it("builds a query once per connection and reuses it in the next transaction, which sees its own writes", async () => {
    for (const name of ["first", "second", "third"]) {
      await single.db.transaction(async (tx) => {
        await tx.update(tenants).set({ name }).where(eq(tenants.id, tenantId));
        const [row] = await tenantName(tx).execute({ id: tenantId });
        expect(row?.name).toBe(name);
      });
    }
    expect(builds.count).toBe(1);
    const { rows } = await single.query<{ name: string }>("select name from pg_prepared_statements where name = 'qc_test_tenant_name'");
    expect(rows).toHaveLength(1);
  });

  it("runs on the transaction's connection: what it writes is rolled back with the transaction", async () => {
    const key = { tenantId, key: "rolled-back" };
    const row = {
      ...key,
      requestHash: "h",
      method: "POST",
      path: "/v1/transactions",
      responseStatus: 201,
      responseBody: { id: "x" },
      createdAt: new Date(),
      completedAt: new Date(),
      expiresAt: new Date(Date.now() + 60_000),
    };
    await expect(
      single.db.transaction(async (tx) => {
        await insertIdempotencyKey(tx, row);
        expect((await lockIdempotencyKey(tx, key)).row?.responseStatus).toBe(201);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, "rolled-back"))).toEqual([]);
    await single.db.transaction((tx) => insertIdempotencyKey(tx, row));
    const [stored] = await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, "rolled-back"));
    expect(stored).toMatchObject({ tenantId, responseStatus: 201, responseBody: { id: "x" }, method: "POST" });
    expect(stored!.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it(
    "stores null as SQL NULL, takes a missing value from $defaultFn, and refuses to leave out a column with a " + "database default",
    async () => {
      const now = new Date();
      const row = {
        tenantId,
        key: "nulls",
        requestHash: "h",
        method: "POST",
        path: "/p",
        responseStatus: null,
        responseBody: null,
        createdAt: now,
        completedAt: null,
        expiresAt: now,
      };
      await single.db.transaction((tx) => insertIdempotencyKey(tx, row));
      const { rows } = await t.query<{ body_is_null: boolean; status: number | null; completed: string | null }>(
        "select response_body is null as body_is_null, response_status as status, completed_at as completed from " +
          "idempotency_keys where key = 'nulls'",
      );
      expect(rows).toEqual([{ body_is_null: true, status: null, completed: null }]);
      const { createdAt: _left, ...withoutCreatedAt } = row;
      expect(() => rowValues(idempotencyKeys, withoutCreatedAt)).toThrow(/created_at/);
    },
  );

  it("prepares a raw statement once per process text and runs it with values by name", async () => {
    const double = defineStatement<{ doubled: number }>(
      "qc_test_double",
      () => sql`select ${sql.placeholder("value")}::int * 2 as doubled`,
    );
    const run = (db: Executor, value: number) => double.on(db).execute({ value });
    expect((await run(single.db, 21)).rows).toEqual([{ doubled: 42 }]);
    await single.db.transaction(async (tx) => expect((await run(tx, 4)).rows).toEqual([{ doubled: 8 }]));
  });

  it("gives pg-boss the transaction's connection: its statements commit or roll back with the transaction", async () => {
    await t.query("create table prepared_test_jobs (id uuid primary key, tags text[])");
    const ids = ["0194f2c4-0000-7000-8000-000000000001", "0194f2c4-0000-7000-8000-000000000002"];
    await expect(
      single.db.transaction(async (tx) => {
        expect(driverConnection(tx)).toBeDefined();
        await jobExecutor(tx).executeSql("insert into prepared_test_jobs (id, tags) values ($1, $2)", [ids[0], ["a"]]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await single.db.transaction(async (tx) => {
      await jobExecutor(tx).executeSql("insert into prepared_test_jobs (id, tags) values ($1, $2)", [ids[1], ["a", "b"]]);
      // Arrays bind whole, as pg-boss's `= any($1::uuid[])` needs.
      const found = await jobExecutor(tx).executeSql("select id, tags from prepared_test_jobs where id = any($1::uuid[])", [ids]);
      expect(found.rows).toEqual([{ id: ids[1], tags: ["a", "b"] }]);
    });
    expect((await t.query("select id from prepared_test_jobs")).rows).toEqual([{ id: ids[1] }]);
  });

  it("writes outbox events and locks a transaction's status through statements prepared once per connection", async () => {
    const aggregate = {
      tenantId,
      type: "transaction.updated",
      aggregateType: "transaction",
      aggregateId: "0194f2c4-0000-7000-8000-0000000000ee",
    };
    const written: { id: string; sequence: number }[] = [];
    for (const step of [1, 2, 3]) {
      await single.db.transaction(async (tx) => {
        expect(await lockTransactionStatus(tx, tenantId, aggregate.aggregateId)).toBeUndefined();
        written.push(await insertOutboxEvent(tx, { ...aggregate, data: { step, nested: { ok: true } } }));
      });
    }
    // The aggregate's sequence goes on from the rows before; each event has its own id.
    expect(written.map((w) => w.sequence)).toEqual([1, 2, 3]);
    expect(new Set(written.map((w) => w.id)).size).toBe(3);
    const { rows: stored } = await t.query<{ id: string; sequence: number; data: unknown; tenant_id: string }>(
      "select id, sequence, data, tenant_id from event_outbox where aggregate_id = $1 order by sequence",
      [aggregate.aggregateId],
    );
    expect(stored).toEqual(
      written.map((w, i) => ({ id: w.id, sequence: w.sequence, data: { step: i + 1, nested: { ok: true } }, tenant_id: tenantId })),
    );
  });

  it("claims and marks outbox events for any batch size through statements prepared once per connection", async () => {
    await t.query("update event_outbox set dispatched_at = now() where dispatched_at is null");
    // Endpoints: this tenant's (one enabled, one disabled), a second tenant's, and one of a tenant not asked for.
    const [second, unasked] = await t.db
      .insert(tenants)
      .values([{ name: "B" }, { name: "C" }])
      .returning();
    const endpoint = (tenant: string, status: "ENABLED" | "DISABLED") =>
      t.query<{ id: string }>(
        "insert into webhook_endpoints (id, tenant_id, url, status, secret_ciphertext, disabled_at) values " +
          "(gen_random_uuid(), $1, 'https://example.test/hook', $2::webhook_endpoint_status, 'x', case when $2::text = " +
          "'DISABLED' then now() end) returning id",
        [tenant, status],
      );
    const mine = (await endpoint(tenantId, "ENABLED")).rows[0]!.id;
    const theirs = (await endpoint(second!.id, "ENABLED")).rows[0]!.id;
    await endpoint(tenantId, "DISABLED");
    await endpoint(unasked!.id, "ENABLED");
    const aggregate = {
      tenantId,
      type: "transaction.updated",
      aggregateType: "transaction",
      aggregateId: "0194f2c4-0000-7000-8000-0000000000ef",
    };
    for (const step of [1, 2, 3]) await single.db.transaction((tx) => insertOutboxEvent(tx, { ...aggregate, data: { step } }));
    const at = new Date("2026-11-24T01:02:03.456Z");
    // Batches of 2, then 1, then none: one statement text for every size.
    const claimed: number[][] = [];
    for (const limit of [2, 5, 5]) {
      await single.db.transaction(async (tx) => {
        const events = await claimUndispatchedOutboxEvents(tx, limit);
        claimed.push(events.map((event) => (event.data as { step: number }).step));
        await markOutboxEventsDispatched(tx, { seqs: events.map((event) => event.seq), at });
        // Only the enabled endpoints of the tenants asked for, one text for one tenant or two.
        expect((await listEnabledWebhookEndpoints(tx, [tenantId, second!.id])).map((e) => e.id).sort()).toEqual([mine, theirs].sort());
        expect((await listEnabledWebhookEndpoints(tx, [second!.id])).map((e) => e.id)).toEqual([theirs]);
      });
    }
    expect(claimed).toEqual([[1, 2], [3], []]);
    const { rows: stored } = await t.query<{ dispatched_at: Date | null }>(
      "select dispatched_at from event_outbox where aggregate_id = $1 order by sequence",
      [aggregate.aggregateId],
    );
    expect(stored.map((row) => row.dispatched_at?.toISOString())).toEqual([at.toISOString(), at.toISOString(), at.toISOString()]);
  });

  it("sends pg-boss's parameterized statements as named prepared statements, parsed once per connection", async () => {
    await t.query("create table prepared_test_named (n int)");
    const insert = "insert into prepared_test_named (n) select $1::int where $2::text = 'yes'";
    for (const n of [1, 2, 3]) {
      await single.db.transaction(async (tx) => {
        await jobExecutor(tx).executeSql(insert, [n, "yes"]);
      });
    }
    // A text without parameters may hold several statements: it keeps the simple protocol, unnamed.
    await single.db.transaction(async (tx) => {
      await jobExecutor(tx).executeSql("insert into prepared_test_named (n) values (10); insert into prepared_test_named (n) values (11)");
    });
    expect((await t.query("select n from prepared_test_named order by n")).rows.map((r) => r.n)).toEqual([1, 2, 3, 10, 11]);
    const name = jobStatementName(insert, [1, "yes"]);
    expect(name).toMatch(/^qc_boss_[0-9a-f]{32}$/);
    expect(jobStatementName(insert, [2, "no"])).toBe(name);
    expect(jobStatementName(`${insert} `, [1, "yes"])).not.toBe(name);
    // Without a parameter list, or with none and a `;` in the text: unnamed.
    expect(jobStatementName("select 1", undefined)).toBeUndefined();
    expect(jobStatementName("select 1; select 2", [])).toBeUndefined();
    expect(jobStatementName("select 1", [])).toMatch(/^qc_boss_/);
    const { rows } = await single.query<{ name: string; statement: string }>(
      "select name, statement from pg_prepared_statements where statement like '%prepared_test_named%'",
    );
    // Prepared once on the one connection, reused by the next transactions; the text without parameters is not there.
    expect(rows).toEqual([{ name, statement: insert }]);
  });
  it("names a statement built from a row by its text: two texts of one shape get two names, on one connection", async () => {
    const row = { tenantId, actorType: "system", actorId: "test", action: "text.one", details: { n: 1 } };
    const plain = single.db.insert(auditEvents).values(row);
    const returning = single.db
      .insert(auditEvents)
      .values({ ...row, action: "text.two" })
      .returning({ id: auditEvents.id });
    const plainName = statementNameOfText(plain.toSQL().sql);
    const returningName = statementNameOfText(returning.toSQL().sql);
    expect(plainName).toMatch(/^qc_[0-9a-f]{32}$/);
    expect(returningName).not.toBe(plainName);
    // Other values, the same text: the same name.
    expect(
      statementNameOfText(
        single.db
          .insert(auditEvents)
          .values({ ...row, action: "text.three" })
          .toSQL().sql,
      ),
    ).toBe(plainName);
    // Both on the one connection: node-postgres refuses a name it has prepared with another text.
    await executeNamedByText(plain);
    const [inserted] = await executeNamedByText(returning);
    await single.db.transaction((tx) => executeNamedByText(tx.insert(auditEvents).values({ ...row, action: "text.three" })));
    const stored = await t.db
      .select({ id: auditEvents.id, action: auditEvents.action })
      .from(auditEvents)
      .where(sql`${auditEvents.action} like 'text.%'`)
      .orderBy(auditEvents.action);
    expect(stored.map((r) => r.action)).toEqual(["text.one", "text.three", "text.two"]);
    expect(stored.find((r) => r.action === "text.two")?.id).toBe(inserted!.id);
  });

  it("moves a row by a conditional update, rolled back with its transaction", async () => {
    const [vault] = await t.db.insert(vaults).values({ tenantId, networkCode: "QUANTUM_SANDBOX", name: "v0" }).returning();
    const key = { id: vault!.id, tenantId };
    for (const name of ["v1", "v2"]) {
      const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
      const moved = await single.db.transaction((tx) => updateWhereStatus(tx, vaults, key, ["ACTIVE"], { name, updatedAt: at }));
      expect(moved).toMatchObject({ id: vault!.id, name, status: "ACTIVE", updatedAt: at });
    }
    // The condition still holds: not moved from a status it is not in, nor for another tenant.
    expect(await updateWhereStatus(single.db, vaults, key, ["ARCHIVED"], { name: "v3", updatedAt: new Date() })).toBeUndefined();
    const [other] = await t.db.insert(tenants).values({ name: "B" }).returning();
    expect(
      await updateWhereStatus(single.db, vaults, { ...key, tenantId: other!.id }, ["ACTIVE"], { name: "v3", updatedAt: new Date() }),
    ).toBeUndefined();
    await expect(
      single.db.transaction(async (tx) => {
        expect(await updateWhereStatus(tx, vaults, key, ["ACTIVE"], { name: "v4", updatedAt: new Date() })).toMatchObject({ name: "v4" });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    // An SQL value, and another set of columns: other texts, on the same connection.
    expect(
      await updateWhereStatus(single.db, vaults, key, ["ACTIVE"], { name: sql`${vaults.name} || '!'`, updatedAt: new Date() }),
    ).toMatchObject({ name: "v2!" });
    const archivedAt = new Date(Date.UTC(2026, 0, 3));
    expect(
      await updateWhereStatus(single.db, vaults, key, ["ACTIVE"], { status: "ARCHIVED", archivedAt, updatedAt: archivedAt }),
    ).toMatchObject({ status: "ARCHIVED", archivedAt });
    const [stored] = await t.db.select().from(vaults).where(eq(vaults.id, vault!.id));
    expect(stored).toMatchObject({ name: "v2!", status: "ARCHIVED", archivedAt });
  });

  it("writes audit rows one by one and several at once", async () => {
    const row = (action: string, requestId?: string) => ({
      tenantId,
      actorType: "system",
      actorId: "test",
      action,
      targetType: "vault",
      targetId: "v",
      ...(requestId ? { requestId } : {}),
      details: { n: action },
    });
    await single.db.transaction((tx) => insertAuditEvents(tx, [row("shape.one")]));
    await insertAuditEvents(single.db, [row("shape.two")]);
    await insertAuditEvents(single.db, [row("shape.three", "req-3")]);
    await insertAuditEvents(single.db, [row("shape.four"), row("shape.five", "req-5")]);
    await expect(
      single.db.transaction(async (tx) => {
        await insertAuditEvents(tx, [row("shape.rolled-back")]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    const stored = await t.query<{ action: string; request_id: string | null; details: unknown; created_at: Date }>(
      "select action, request_id, details, created_at from audit_events where action like 'shape.%' order by action",
    );
    expect(stored.rows.map((r) => [r.action, r.request_id, r.details])).toEqual([
      ["shape.five", "req-5", { n: "shape.five" }],
      ["shape.four", null, { n: "shape.four" }],
      ["shape.one", null, { n: "shape.one" }],
      ["shape.three", "req-3", { n: "shape.three" }],
      ["shape.two", null, { n: "shape.two" }],
    ]);
    // A column left out still takes the database's default.
    for (const r of stored.rows) expect(Math.abs(r.created_at.getTime() - Date.now())).toBeLessThan(60_000);
  });
});
