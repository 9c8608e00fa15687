import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type DatabaseHandle } from "../client";
import { tenants, vaults } from "../schema";
import { useTestDatabase } from "../testing";
import { findVaultRow } from "./vaults";

// findVaultRow is the read behind GET /v1/vault/accounts/{id}: a named prepared statement
// (../hot-path). These run on node-postgres and, with vitest.neon.config.ts, on Neon's driver.
describe("findVaultRow", () => {
  const t = useTestDatabase();
  let tenantId: string;
  let otherTenantId: string;
  let vaultId: string;
  /** One connection only, so that what the server prepared on "the" connection can be looked at. */
  let single: DatabaseHandle;

  beforeAll(async () => {
    const [tenant, other] = await t.db
      .insert(tenants)
      .values([{ name: "A" }, { name: "B" }])
      .returning();
    tenantId = tenant!.id;
    otherTenantId = other!.id;
    const now = new Date("2026-11-21T10:00:00.000Z");
    const [vault] = await t.db
      .insert(vaults)
      .values({ tenantId, name: "treasury", networkCode: "QUANTUM_SANDBOX", metadata: { desk: "ops" }, createdAt: now, updatedAt: now })
      .returning();
    vaultId = vault!.id;
    // The pool path (pipelined reads off): what the server prepared on "the" connection is looked at.
    single = createDatabase({ url: t.url, poolMax: 1, pipelinedReads: 0, applicationName: "qc-test-single" });
  });
  afterAll(async () => {
    await single?.close();
  });

  it("finds the tenant's vault with every column mapped, and nothing for another tenant or an unknown id", async () => {
    const row = await findVaultRow(t.db, { tenantId, vaultId });
    expect(row).toMatchObject({
      id: vaultId,
      tenantId,
      name: "treasury",
      status: "ACTIVE",
      networkCode: "QUANTUM_SANDBOX",
      metadata: { desk: "ops" },
    });
    expect(row!.createdAt).toBeInstanceOf(Date);
    expect(row!.createdAt.toISOString()).toBe("2026-11-21T10:00:00.000Z");
    expect(await findVaultRow(t.db, { tenantId: otherTenantId, vaultId })).toBeUndefined();
    expect(await findVaultRow(t.db, { tenantId, vaultId: "0194f2c4-0000-7000-8000-0000000000ff" })).toBeUndefined();
  });

  it("gives each caller its own parameters when many run at once over the pool", async () => {
    const keys = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? { tenantId, vaultId } : { tenantId: otherTenantId, vaultId }));
    const rows = await Promise.all(keys.map((key) => findVaultRow(t.db, key)));
    rows.forEach((row, i) => (i % 2 === 0 ? expect(row?.id).toBe(vaultId) : expect(row).toBeUndefined()));
  });

  it("is prepared once on the server connection, under its name", async () => {
    await findVaultRow(single.db, { tenantId, vaultId });
    await findVaultRow(single.db, { tenantId, vaultId });
    const { rows } = await single.query<{ name: string; statement: string }>("select name, statement from pg_prepared_statements");
    const prepared = rows.filter((r) => r.name === "qc_find_vault");
    expect(prepared).toHaveLength(1);
    expect(prepared[0]!.statement).toMatch(/from "vaults" where \("vaults"\."id" = \$1 and "vaults"\."tenant_id" = \$2\)/);
  });

  it("prepares the statement again on a replacement connection", async () => {
    const [{ pid }] = (await single.query<{ pid: number }>("select pg_backend_pid() as pid")).rows as [{ pid: number }];
    await t.query("select pg_terminate_backend($1)", [pid]);
    // The pool learns that its connection died on the next query (which fails, as any query would).
    let row: Awaited<ReturnType<typeof findVaultRow>>;
    for (let attempt = 1; ; attempt++) {
      try {
        row = await findVaultRow(single.db, { tenantId, vaultId });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
    expect(row?.id).toBe(vaultId);
    const [{ pid: replacement }] = (await single.query<{ pid: number }>("select pg_backend_pid() as pid")).rows as [{ pid: number }];
    expect(replacement).not.toBe(pid);
  });

  it("runs inside a transaction, with and without the share lock", async () => {
    await t.db.transaction(async (tx) => {
      expect((await findVaultRow(tx, { tenantId, vaultId }))?.id).toBe(vaultId);
      expect((await findVaultRow(tx, { tenantId, vaultId, lock: "share" }))?.id).toBe(vaultId);
      expect(await findVaultRow(tx, { tenantId: otherTenantId, vaultId })).toBeUndefined();
    });
  });
});
