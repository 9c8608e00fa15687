import { and, desc, eq, isNull } from "drizzle-orm";
import type { Executor } from "../client";
import { apiKeys } from "../schema/identity";

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function insertApiKey(
  db: Executor,
  params: { tenantId: string; keyId: string; secretHash: string; label: string; scopes: string[]; expiresAt: Date | null; createdByUserId: string | null },
): Promise<ApiKeyRow> {
  const [row] = await db.insert(apiKeys).values(params).returning();
  return row!;
}

/** The tenant's keys, newest first. */
export function listTenantApiKeys(db: Executor, params: { tenantId: string }): Promise<ApiKeyRow[]> {
  return db.select().from(apiKeys).where(eq(apiKeys.tenantId, params.tenantId)).orderBy(desc(apiKeys.id));
}

/** The tenant's key, or undefined (also for another tenant's key id). */
export async function findTenantApiKey(db: Executor, params: { tenantId: string; keyId: string }): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.keyId, params.keyId), eq(apiKeys.tenantId, params.tenantId)));
  return row;
}

/** Revokes the tenant's key (again, if already revoked); undefined for an unknown key. */
export async function revokeTenantApiKey(db: Executor, params: { tenantId: string; keyId: string; revokedAt: Date }): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .update(apiKeys)
    .set({ status: "REVOKED", revokedAt: params.revokedAt })
    .where(and(eq(apiKeys.keyId, params.keyId), eq(apiKeys.tenantId, params.tenantId)))
    .returning();
  return row;
}

/**
 * Marks an ACTIVE, never-rotated key as rotated to `replacedByKeyId`: one conditional UPDATE, so
 * of two concurrent rotations exactly one gets true.
 */
export async function markApiKeyRotated(
  db: Executor,
  params: { tenantId: string; keyId: string; rotatedAt: Date; graceEndsAt: Date; replacedByKeyId: string },
): Promise<boolean> {
  const rotated = await db
    .update(apiKeys)
    .set({ rotatedAt: params.rotatedAt, graceEndsAt: params.graceEndsAt, replacedByKeyId: params.replacedByKeyId })
    .where(and(eq(apiKeys.keyId, params.keyId), eq(apiKeys.tenantId, params.tenantId), eq(apiKeys.status, "ACTIVE"), isNull(apiKeys.rotatedAt)))
    .returning({ id: apiKeys.id });
  return rotated.length > 0;
}

/**
 * Marks a key exposed the first time it is seen over plain HTTP. The request carried only the
 * key id (its tenant is what this finds out); undefined for an unknown or already exposed key.
 */
export async function markApiKeyExposed(db: Executor, params: { keyId: string; exposedAt: Date }): Promise<{ keyId: string; tenantId: string } | undefined> {
  const [row] = await db
    .update(apiKeys)
    .set({ exposedAt: params.exposedAt })
    .where(and(eq(apiKeys.keyId, params.keyId), isNull(apiKeys.exposedAt)))
    .returning({ keyId: apiKeys.keyId, tenantId: apiKeys.tenantId });
  return row;
}
