import { and, asc, eq, gt, isNull, lte, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { auditChainHeads, auditEvents } from "../schema/system";
import type { AuditEventRow } from "./audit";

/** The first row's `prevHash` (CONTRACT §19): 64 zeros. */
export const AUDIT_GENESIS_HASH = "0".repeat(64);

export interface AuditChainHead {
  /** The last sealed row's sequence (0 before the first). */
  sequence: number;
  /** The last sealed row's hash (AUDIT_GENESIS_HASH before the first). */
  hash: string;
}

/**
 * The tenant's chain head, locked until the open transaction ends (created at sequence 0 the
 * first time). One statement: an upsert that changes nothing takes the row lock and returns the
 * row. Only sealers call this; writers of audit rows never wait on it.
 */
export async function lockAuditChainHead(tx: Executor, tenantId: string): Promise<AuditChainHead> {
  const [head] = await tx
    .insert(auditChainHeads)
    .values({ tenantId, sequence: 0, hash: AUDIT_GENESIS_HASH })
    .onConflictDoUpdate({ target: auditChainHeads.tenantId, set: { tenantId: sql`excluded.tenant_id` } })
    .returning({ sequence: auditChainHeads.sequence, hash: auditChainHeads.hash });
  if (!head) throw new Error("the audit chain head upsert returned no row");
  return head;
}

/** The tenant's chain head, unlocked (sequence 0 and the genesis hash before the first seal). */
export async function readAuditChainHead(db: Executor, tenantId: string): Promise<AuditChainHead> {
  const [head] = await db
    .select({ sequence: auditChainHeads.sequence, hash: auditChainHeads.hash })
    .from(auditChainHeads)
    .where(eq(auditChainHeads.tenantId, tenantId));
  return head ?? { sequence: 0, hash: AUDIT_GENESIS_HASH };
}

/** Up to `limit` of the tenant's unsealed audit rows, oldest id first (index audit_events_unsealed_idx). */
export function listUnsealedAuditEvents(db: Executor, params: { tenantId: string; limit: number }): Promise<AuditEventRow[]> {
  return db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.tenantId, params.tenantId), isNull(auditEvents.sequence)))
    .orderBy(asc(auditEvents.id))
    .limit(params.limit);
}

/** Tenants with unsealed audit rows (at most `limit`), for the sealer's sweep. */
export async function listTenantsWithUnsealedAuditEvents(db: Executor, limit: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ tenantId: auditEvents.tenantId })
    .from(auditEvents)
    .where(sql`${auditEvents.sequence} is null and ${auditEvents.tenantId} is not null`)
    .limit(limit);
  return rows.flatMap((r) => (r.tenantId ? [r.tenantId] : []));
}

/**
 * Seals rows: fills `sequence`, `prevHash` and `hash` of each (one statement, however many), and
 * moves the tenant's head to the last of them. The caller holds the head lock
 * (lockAuditChainHead) in this transaction and gives the rows in chain order, the first following
 * the head. A row already sealed is not touched (`sequence is null`); the count says how many
 * were, and a caller that gets fewer than it gave must roll back.
 */
export async function sealAuditEvents(
  tx: Executor,
  params: { tenantId: string; rows: { id: string; sequence: number; prevHash: string; hash: string }[] },
): Promise<number> {
  const last = params.rows.at(-1);
  if (!last) return 0;
  const payload = JSON.stringify(params.rows.map((r) => [r.id, r.sequence, r.prevHash, r.hash]));
  const result = await tx.execute(sql`
    with sealed as (
      update ${auditEvents} as e
         set sequence = (v.item->>1)::bigint, prev_hash = v.item->>2, hash = v.item->>3
        from jsonb_array_elements(${payload}::jsonb) as v(item)
       where e.id = (v.item->>0)::uuid and e.tenant_id = ${params.tenantId} and e.sequence is null
      returning e.id
    ), head as (
      update ${auditChainHeads} set sequence = ${last.sequence}, hash = ${last.hash}, updated_at = now()
       where tenant_id = ${params.tenantId}
    )
    select count(*)::int as sealed from sealed`);
  return Number((result.rows[0] as { sealed: number } | undefined)?.sealed ?? 0);
}

/**
 * One page of the tenant's sealed audit rows in chain order: sequences after `afterSequence`, up
 * to `toSequence`, at most `limit` (a keyset page on audit_events_tenant_sequence_idx, so an
 * export of any length reads page by page in constant memory).
 */
export function listChainedAuditEvents(
  db: Executor,
  params: { tenantId: string; afterSequence: number; toSequence: number; limit: number },
): Promise<AuditEventRow[]> {
  return db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.tenantId, params.tenantId),
        gt(auditEvents.sequence, params.afterSequence),
        lte(auditEvents.sequence, params.toSequence),
      ),
    )
    .orderBy(asc(auditEvents.sequence))
    .limit(params.limit);
}
