import { randomUUID } from "node:crypto";
import { useTestDatabase } from "@qc/db/testing";
import { AUDIT_GENESIS_HASH, listTenantAuditEvents } from "@qc/db/queries";
import { describe, expect, it } from "vitest";
import { auditChainFields, auditRowHash } from "./audit-chain";
import { recordAuditEvent } from "./record-audit-event";
import { sealAuditChain } from "./seal-audit-chain";

interface ChainRow {
  id: string;
  sequence: number;
  prev_hash: string;
  hash: string;
}

describe("audit hash chain (CONTRACT §19)", () => {
  const t = useTestDatabase();

  const chainOf = async (tenantId: string) =>
    (
      await t.pool.query<ChainRow>(
        "select id, sequence::int as sequence, prev_hash, hash from audit_events where tenant_id = $1 order by sequence",
        [tenantId],
      )
    ).rows;

  it("20 concurrent writers and sealers on one tenant leave one gapless chain whose hashes recompute", async () => {
    const tenantId = randomUUID();
    const writers = Array.from({ length: 20 }, (_, w) =>
      (async () => {
        for (let i = 0; i < 10; i += 1) {
          await t.db.transaction(async (tx) => {
            await recordAuditEvent(tx, {
              action: "vault.created",
              actorType: "api_key",
              actorId: `key-${w}`,
              tenantId,
              targetType: "vault",
              targetId: `v-${w}-${i}`,
              details: { writer: w, item: i, note: `ünïcode "${w}"` },
            });
          });
          if (i % 3 === 0) await sealAuditChain(t.db, tenantId);
        }
      })(),
    );
    await Promise.all(writers);
    await sealAuditChain(t.db, tenantId);

    const chain = await chainOf(tenantId);
    expect(chain.map((r) => r.sequence)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(chain[0]!.prev_hash).toBe(AUDIT_GENESIS_HASH);
    for (let i = 1; i < chain.length; i += 1) expect(chain[i]!.prev_hash).toBe(chain[i - 1]!.hash);

    // Every hash is the SHA-256 of the stored row's canonical fields.
    const stored = await listTenantAuditEvents(t.db, { tenantId, limit: 300 });
    expect(stored).toHaveLength(200);
    for (const row of stored) {
      const link = chain.find((c) => c.id === row.id)!;
      expect(auditRowHash(auditChainFields(row, { tenantId, sequence: link.sequence, prevHash: link.prev_hash }))).toBe(link.hash);
    }
    const head = await t.pool.query<{ sequence: number; hash: string }>(
      "select sequence::int as sequence, hash from audit_chain_heads where tenant_id = $1",
      [tenantId],
    );
    expect(head.rows[0]).toEqual({ sequence: 200, hash: chain[199]!.hash });
  });

  it("a sealed row cannot be changed, re-sealed or deleted; an unsealed row cannot be changed but for its seal", async () => {
    const tenantId = randomUUID();
    await recordAuditEvent(t.db, { action: "vault.created", actorType: "system", tenantId, details: { n: 1 } });
    await recordAuditEvent(t.db, { action: "vault.created", actorType: "system", tenantId, details: { n: 2 } });
    // An unsealed row: only filling the chain columns is allowed, not changing the content with it.
    await expect(
      t.pool.query("update audit_events set action = 'x', sequence = 1, prev_hash = 'a', hash = 'b' where tenant_id = $1", [tenantId]),
    ).rejects.toThrow(/append-only/);
    expect(await sealAuditChain(t.db, tenantId)).toBe(2);
    expect(await sealAuditChain(t.db, tenantId)).toBe(0);
    await expect(t.pool.query("update audit_events set hash = 'b' where tenant_id = $1", [tenantId])).rejects.toThrow(/append-only/);
    await expect(t.pool.query("update audit_events set details = '{}' where tenant_id = $1", [tenantId])).rejects.toThrow(/append-only/);
    await expect(t.pool.query("delete from audit_events where tenant_id = $1", [tenantId])).rejects.toThrow(/append-only/);
    // Rows without a tenant are never chained.
    await recordAuditEvent(t.db, { action: "auth.failed", actorType: "anonymous", details: {} });
    const unchained = await t.pool.query("select 1 from audit_events where tenant_id is null and sequence is not null");
    expect(unchained.rows).toHaveLength(0);
  });
});
