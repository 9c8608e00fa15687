import { findTenantApiKey, insertApiKey, lockApiKeyRotation, markApiKeyRotated } from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import { announceAuthChange, type AuthChangeDeps } from "../auth/authenticator";
import { generateApiKeyId, generateApiKeySecret, hashApiSecret } from "../auth/tokens";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { emitEvent } from "../events/emit-event";
import { assertMayManageApiKey } from "./assert-may-manage-api-key";

export const DEFAULT_ROTATION_GRACE_MINUTES = 24 * 60;

export interface RotateApiKeyInput {
  tenantId: string;
  keyId: string;
  gracePeriodMinutes?: number;
  actor: Actor;
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
 *
 * A key that has itself been rotated (still in its grace period) cannot rotate any key, its
 * successor included: rotating a stolen key must leave the thief, who still holds it for the
 * grace period, unable to mint and keep the newest secret (security review L3). 403
 * INSUFFICIENT_SCOPE: the key no longer carries the authority, and like any scope refusal the
 * request counts as not executed, so a retry with the successor and the same idempotency key runs.
 * Another member's key takes a role that administers the tenant (assertMayManageApiKey).
 */
export async function rotateApiKey(
  deps: Pick<ServiceDeps, "db" | "now"> & AuthChangeDeps,
  pepper: Buffer,
  input: RotateApiKeyInput,
): Promise<RotateApiKeyResult> {
  const now = deps.now();
  const graceEndsAt = new Date(now.getTime() + (input.gracePeriodMinutes ?? DEFAULT_ROTATION_GRACE_MINUTES) * 60_000);
  const newKeyId = generateApiKeyId();
  const secret = generateApiKeySecret();
  return deps.db.transaction(async (tx) => {
    if (input.actor.type === "api_key" && input.actor.id) {
      const caller = await lockApiKeyRotation(tx, { tenantId: input.tenantId, keyId: input.actor.id });
      if (!caller || caller.rotated) {
        throw new AppError(
          "INSUFFICIENT_SCOPE",
          "this API key has been rotated: during its grace period it cannot rotate keys; use its successor",
        );
      }
    }
    const old = await findTenantApiKey(tx, { tenantId: input.tenantId, keyId: input.keyId });
    if (!old) throw new AppError("NOT_FOUND", "credential not found");
    await assertMayManageApiKey(tx, input.actor, old);
    if (old.status === "REVOKED") throw new AppError("CONFLICT", "a revoked credential cannot be rotated");
    if (old.expiresAt && old.expiresAt <= now) throw new AppError("CONFLICT", "an expired credential cannot be rotated");
    const rotated = await markApiKeyRotated(tx, {
      tenantId: input.tenantId,
      keyId: input.keyId,
      rotatedAt: now,
      graceEndsAt,
      replacedByKeyId: newKeyId,
    });
    if (!rotated) throw new AppError("CONFLICT", "credential already rotated");
    await insertApiKey(tx, {
      tenantId: input.tenantId,
      keyId: newKeyId,
      secretHash: hashApiSecret(pepper, secret),
      label: old.label,
      scopes: old.scopes,
      expiresAt: old.expiresAt,
      createdByUserId: old.createdByUserId,
    });
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "credential.rotated",
      target: { type: "api_key", id: input.keyId },
      details: { newKeyId, graceEndsAt: graceEndsAt.toISOString() },
    });
    // The old key stops at the end of the grace period, or at its own expiry if that comes first
    // (the same time the credential list shows).
    const oldKeyExpiresAt = (old.expiresAt && old.expiresAt < graceEndsAt ? old.expiresAt : graceEndsAt).toISOString();
    await emitEvent(tx, {
      tenantId: input.tenantId,
      type: "credential.rotated",
      aggregateId: input.keyId,
      data: { oldKeyId: input.keyId, newKeyId, oldKeyExpiresAt },
    });
    await announceAuthChange(tx, `key:${input.keyId}`, deps.authenticator);
    return { newKeyId, secret, oldKeyId: input.keyId, oldKeyExpiresAt };
  });
}
