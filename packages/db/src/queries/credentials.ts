import { and, desc, eq, isNull } from "drizzle-orm";
import type { Executor } from "../client";
import { apiKeys } from "../schema/identity";

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function insertApiKey(
  db: Executor,
  params: {
    tenantId: string;
    keyId: string;
    secretHash: string;
    label: string;
    scopes: string[];
    expiresAt: Date | null;
    createdByUserId: string;
  },
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

/**
 * Whether the tenant's key has been rotated (it is then in its grace period, or past it), read
 * with a share lock: a rotation of this key that commits first is seen, one that comes later
 * waits for the caller's transaction. Undefined for an unknown key.
 */
export async function lockApiKeyRotation(
  db: Executor,
  params: { tenantId: string; keyId: string },
): Promise<{ rotated: boolean } | undefined> {
  const [row] = await db
    .select({ rotatedAt: apiKeys.rotatedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyId, params.keyId), eq(apiKeys.tenantId, params.tenantId)))
    .for("share");
  return row && { rotated: row.rotatedAt !== null };
}

/** Revokes the tenant's key (again, if already revoked); undefined for an unknown key. */
export async function revokeTenantApiKey(
  db: Executor,
  params: { tenantId: string; keyId: string; revokedAt: Date },
): Promise<ApiKeyRow | undefined> {
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
    .where(
      and(eq(apiKeys.keyId, params.keyId), eq(apiKeys.tenantId, params.tenantId), eq(apiKeys.status, "ACTIVE"), isNull(apiKeys.rotatedAt)),
    )
    .returning({ id: apiKeys.id });
  return rotated.length > 0;
}

/** A key's tenant and secret hash by its id alone (the plain-HTTP listener knows no tenant); undefined for an unknown key. */
export async function findApiKeySecretHash(
  db: Executor,
  params: { keyId: string },
): Promise<{ tenantId: string; secretHash: string } | undefined> {
  const [row] = await db
    .select({ tenantId: apiKeys.tenantId, secretHash: apiKeys.secretHash })
    .from(apiKeys)
    .where(eq(apiKeys.keyId, params.keyId));
  return row;
}

/**
 * Marks a key exposed the first time it is seen over plain HTTP. The request carried only the
 * key id and a secret (the caller has checked the secret; its tenant is what this finds out);
 * undefined for an unknown or already exposed key.
 */
export async function markApiKeyExposed(
  db: Executor,
  params: { keyId: string; exposedAt: Date },
): Promise<{ keyId: string; tenantId: string } | undefined> {
  const [row] = await db
    .update(apiKeys)
    .set({ exposedAt: params.exposedAt })
    .where(and(eq(apiKeys.keyId, params.keyId), isNull(apiKeys.exposedAt)))
    .returning({ keyId: apiKeys.keyId, tenantId: apiKeys.tenantId });
  return row;
}
