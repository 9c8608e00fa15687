import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { signerKeys } from "../schema/custody";

export type SignerKeyRow = typeof signerKeys.$inferSelect;

/**
 * The oldest enrolled key no wallet uses yet, locked for the rest of the transaction, or
 * undefined when none is left. `SKIP LOCKED`: concurrent callers get different keys instead
 * of waiting on each other.
 */
export async function takeOldestAvailableSignerKey(db: Executor, params: { tenantId: string }): Promise<SignerKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(signerKeys)
    .where(and(eq(signerKeys.tenantId, params.tenantId), isNull(signerKeys.walletId)))
    .orderBy(asc(signerKeys.id))
    .limit(1)
    .for("update", { skipLocked: true });
  return row;
}

/** Takes the key with `address` out of the pool for `walletId` (no-op when none is enrolled or it is taken). */
export async function assignSignerKey(
  db: Executor,
  params: { tenantId: string; address: string; walletId: string; assignedAt: Date },
): Promise<void> {
  await db
    .update(signerKeys)
    .set({ walletId: params.walletId, assignedAt: params.assignedAt })
    .where(and(eq(signerKeys.tenantId, params.tenantId), eq(signerKeys.address, params.address), isNull(signerKeys.walletId)));
}

/** Adds keys (each with the ownership proof it was enrolled with) to the tenant's pool; keys already enrolled are skipped. Returns the rows added. */
export async function insertSignerKeys(
  db: Executor,
  params: { tenantId: string; keys: { address: string; publicKey: string; ownershipProof: string }[]; createdAt: Date },
): Promise<{ id: string; address: string }[]> {
  if (params.keys.length === 0) return [];
  return db
    .insert(signerKeys)
    .values(
      params.keys.map((k) => ({
        tenantId: params.tenantId,
        address: k.address,
        publicKey: k.publicKey,
        ownershipProof: k.ownershipProof,
        createdAt: params.createdAt,
      })),
    )
    .onConflictDoNothing({ target: [signerKeys.tenantId, signerKeys.address] })
    .returning({ id: signerKeys.id, address: signerKeys.address });
}

/** How many keys the tenant enrolled, and how many of them no wallet uses yet. */
export async function countTenantSignerKeys(db: Executor, params: { tenantId: string }): Promise<{ total: number; available: number }> {
  const [row] = await db
    .select({
      available: sql<number>`(count(*) filter (where ${isNull(signerKeys.walletId)}))::int`,
      total: count(),
    })
    .from(signerKeys)
    .where(eq(signerKeys.tenantId, params.tenantId));
  return { total: Number(row?.total ?? 0), available: Number(row?.available ?? 0) };
}
