import { randomUUID } from "node:crypto";
import { createLogger, getAuditPublicKey, listAuditCheckpoints, serviceConfig, verifyAuditCheckpoint } from "@qc/core";
import { insertAuditEvents } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../test/wait";
import { startDaemon, type Daemon } from "./daemon";

const log = createLogger("daemon-test", "silent");

describe("the daemon's audit checkpointer (AUDIT_CHECKPOINT_SECONDS)", () => {
  const t = useTestDatabase();
  const running: Daemon[] = [];
  const config = serviceConfig();
  afterEach(async () => {
    while (running.length) await running.pop()!.stop({ timeoutMs: 5_000 });
  });

  const heads = async () =>
    (
      await t.pool.query<{ tenant_id: string; sequence: number }>(
        "select tenant_id, sequence::int as sequence from audit_chain_heads order by tenant_id",
      )
    ).rows;
  const checkpointed = async (tenantId: string, sequence: number) =>
    (await t.pool.query("select 1 from audit_checkpoints where tenant_id = $1 and sequence = $2", [tenantId, sequence])).rows.length > 0;

  it("two daemons seal and sign every tenant within the interval, one checkpoint per sequence, each verifying", async () => {
    const tenants = [randomUUID(), randomUUID()];
    const write = async (count: number) => {
      for (const tenantId of tenants)
        for (let i = 0; i < count; i += 1)
          await insertAuditEvents(t.db, [{ action: "vault.created", actorType: "system", tenantId, details: { i } }]);
    };
    await write(3);
    for (const instanceId of ["audit-a", "audit-b"])
      running.push(
        await startDaemon({
          databaseUrl: t.url,
          log,
          instanceId,
          schedules: [],
          auditCheckpointSeconds: 1,
          config,
          deposits: { enabled: false },
        }),
      );
    const started = Date.now();
    await waitFor(async () => (await Promise.all(tenants.map((id) => checkpointed(id, 3)))).every(Boolean), 10_000);
    expect(Date.now() - started).toBeLessThan(5_000); // within the 1 s interval, allowing a loaded machine
    await write(2);
    await waitFor(async () => (await Promise.all(tenants.map((id) => checkpointed(id, 5)))).every(Boolean), 10_000);

    expect(await heads()).toEqual(tenants.sort().map((tenant_id) => ({ tenant_id, sequence: 5 })));
    const { publicKey } = await getAuditPublicKey({ db: t.db, config });
    for (const tenantId of tenants) {
      const checkpoints = await listAuditCheckpoints(t.db, { tenantId, fromSequence: 1, toSequence: 5 });
      expect(checkpoints.map((c) => c.sequence)).toEqual([3, 5]);
      for (const checkpoint of checkpoints) expect(verifyAuditCheckpoint(checkpoint, publicKey)).toBe(true);
    }
    const keys = await t.pool.query("select 1 from audit_keys");
    expect(keys.rows).toHaveLength(1); // two daemons, one key
  });
});
