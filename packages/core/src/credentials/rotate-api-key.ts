import { and, eq, isNull, schema, type Database } from "@qc/db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { announceAuthChange } from "../auth/authenticator";
import { generateApiKeyId, generateApiKeySecret, hashApiSecret } from "../auth/tokens";
import { AppError } from "../errors";
import { emitEvent } from "../events/emit-event";

export const DEFAULT_ROTATION_GRACE_MINUTES = 24 * 60;

export interface RotateApiKeyInput {
  tenantId: string;
  keyId: string;
  gracePeriodMinutes?: number;
  actor: { type: "api_key" | "user"; id: string };
  requestId?: string;
  ip?: string;
}

export interface RotateApiKeyResult {
  newKeyId: string;
  secret: string;
  oldKeyId: string;
  oldKeyExpiresAt: string;
}

/**
 * Issues a successor with the same label, scopes and expiry; the old key keeps working until
 * its grace period ends (default 24 h), then answers 401 CREDENTIAL_ROTATED. A key can be
 * rotated once: the conditional UPDATE makes a concurrent second rotation a 409.
 */
export async function rotateApiKey(deps: { db: Database; pepper: Buffer; now(): Date }, input: RotateApiKeyInput): Promise<RotateApiKeyResult> {
  const now = deps.now();
  const graceEndsAt = new Date(now.getTime() + (input.gracePeriodMinutes ?? DEFAULT_ROTATION_GRACE_MINUTES) * 60_000);
  const newKeyId = generateApiKeyId();
  const secret = generateApiKeySecret();
  return deps.db.transaction(async (tx) => {
    const [old] = await tx
      .select()
      .from(schema.apiKeys)
      .where(and(eq(schema.apiKeys.keyId, input.keyId), eq(schema.apiKeys.tenantId, input.tenantId)));
    if (!old) throw new AppError("NOT_FOUND", "credential not found");
    if (old.status === "REVOKED") throw new AppError("CONFLICT", "a revoked credential cannot be rotated");
    if (old.expiresAt && old.expiresAt <= now) throw new AppError("CONFLICT", "an expired credential cannot be rotated");
    const rotated = await tx
      .update(schema.apiKeys)
      .set({ rotatedAt: now, graceEndsAt, replacedByKeyId: newKeyId })
      .where(and(eq(schema.apiKeys.id, old.id), eq(schema.apiKeys.status, "ACTIVE"), isNull(schema.apiKeys.rotatedAt)))
      .returning({ id: schema.apiKeys.id });
    if (rotated.length === 0) throw new AppError("CONFLICT", "credential already rotated");
    await tx.insert(schema.apiKeys).values({
      tenantId: input.tenantId,
      keyId: newKeyId,
      secretHash: hashApiSecret(deps.pepper, secret),
      label: old.label,
      scopes: old.scopes,
      expiresAt: old.expiresAt,
      createdByUserId: old.createdByUserId,
    });
    await recordAuditEvent(tx, {
      action: "credential.rotated",
      actorType: input.actor.type,
      actorId: input.actor.id,
      tenantId: input.tenantId,
      targetType: "api_key",
      targetId: input.keyId,
      requestId: input.requestId,
      ip: input.ip,
      details: { newKeyId, graceEndsAt: graceEndsAt.toISOString() },
    });
    await emitEvent(tx, input.tenantId, "credential.rotated", { oldKeyId: input.keyId, newKeyId, oldKeyExpiresAt: graceEndsAt.toISOString() });
    await announceAuthChange(tx, `key:${input.keyId}`);
    return { newKeyId, secret, oldKeyId: input.keyId, oldKeyExpiresAt: graceEndsAt.toISOString() };
  });
}
