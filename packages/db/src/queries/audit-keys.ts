import { and, asc, desc, eq, gte, lte, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { auditChainHeads, auditCheckpoints, auditKeys } from "../schema/system";

export type AuditKeyRow = typeof auditKeys.$inferSelect;
export type AuditCheckpointRow = typeof auditCheckpoints.$inferSelect;

/** The ACTIVE audit key, if there is one yet. */
export async function findActiveAuditKey(db: Executor): Promise<AuditKeyRow | undefined> {
  const [row] = await db.select().from(auditKeys).where(eq(auditKeys.status, "ACTIVE"));
  return row;
}

/** An audit key by its key id, ACTIVE or RETIRED. */
export async function findAuditKeyByKeyId(db: Executor, keyId: string): Promise<AuditKeyRow | undefined> {
  const [row] = await db.select().from(auditKeys).where(eq(auditKeys.keyId, keyId));
  return row;
}

/**
 * Inserts an ACTIVE audit key unless one exists: two processes creating the first key at once
 * race on audit_keys_one_active_idx and the loser inserts nothing (false); it then reads the
 * winner's key.
 */
export async function insertActiveAuditKeyIfNone(
  db: Executor,
  key: { keyId: string; publicKey: string; secretKeyCiphertext: string },
): Promise<boolean> {
  const rows = await db
    .insert(auditKeys)
    .values({ ...key, status: "ACTIVE" })
    .onConflictDoNothing({ target: auditKeys.status, where: sql`status = 'ACTIVE'` })
    .returning({ id: auditKeys.id });
  return rows.length > 0;
}

/**
 * Retires the ACTIVE audit key (RETIRED, `retired_at` = now) and returns its key id, or none
 * when there was no ACTIVE key. The caller inserts the new ACTIVE key in the same transaction.
 */
export async function retireActiveAuditKey(tx: Executor): Promise<string | undefined> {
  const [row] = await tx
    .update(auditKeys)
    .set({ status: "RETIRED", retiredAt: sql`now()` })
    .where(eq(auditKeys.status, "ACTIVE"))
    .returning({ keyId: auditKeys.keyId });
  return row?.keyId;
}

/** The tenant's newest signed checkpoint (highest sequence), if any. */
export async function findLatestAuditCheckpoint(db: Executor, tenantId: string): Promise<AuditCheckpointRow | undefined> {
  const [row] = await db
    .select()
    .from(auditCheckpoints)
    .where(eq(auditCheckpoints.tenantId, tenantId))
    .orderBy(desc(auditCheckpoints.sequence))
    .limit(1);
  return row;
}

/**
 * Stores a signed checkpoint unless the tenant already has one at that sequence (two
 * checkpointers at once: the unique (tenant_id, sequence) index keeps one, the other inserts
 * nothing). True when this one was stored.
 */
export async function insertAuditCheckpoint(
  db: Executor,
  checkpoint: { tenantId: string; sequence: number; hash: string; signedAt: Date; keyId: string; signature: string },
): Promise<boolean> {
  const rows = await db
    .insert(auditCheckpoints)
    .values(checkpoint)
    .onConflictDoNothing({ target: [auditCheckpoints.tenantId, auditCheckpoints.sequence] })
    .returning({ id: auditCheckpoints.id });
  return rows.length > 0;
}

/** The tenant's checkpoints with sequences from `fromSequence` to `toSequence` (both included), in sequence order. */
export function listTenantAuditCheckpoints(
  db: Executor,
  params: { tenantId: string; fromSequence: number; toSequence: number },
): Promise<AuditCheckpointRow[]> {
  return db
    .select()
    .from(auditCheckpoints)
    .where(
      and(
        eq(auditCheckpoints.tenantId, params.tenantId),
        gte(auditCheckpoints.sequence, params.fromSequence),
        lte(auditCheckpoints.sequence, params.toSequence),
      ),
    )
    .orderBy(asc(auditCheckpoints.sequence));
}

/**
 * Tenants whose chain head is beyond their last checkpoint (at most `limit`): sealed rows that no
 * signed checkpoint covers yet, for the checkpointer's sweep.
 */
export async function listTenantsWithUncheckpointedAuditHeads(db: Executor, limit: number): Promise<string[]> {
  const result = await db.execute(sql`
    select h.tenant_id from ${auditChainHeads} as h
     where h.sequence > coalesce((select max(c.sequence) from ${auditCheckpoints} as c where c.tenant_id = h.tenant_id), 0)
     limit ${limit}`);
  return (result.rows as { tenant_id: string }[]).map((r) => r.tenant_id);
}
