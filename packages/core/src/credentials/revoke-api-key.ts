import { findTenantApiKey, revokeTenantApiKey } from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import { announceAuthChange, type AuthChangeDeps } from "../auth/authenticator";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { toApiKeyRecord, type ApiKeyRecord } from "./api-key-record";
import { assertMayManageApiKey } from "./assert-may-manage-api-key";

/**
 * Revokes at once (no grace); idempotent. Every instance drops the key from its cache on commit.
 * Another member's key takes a role that administers the tenant (assertMayManageApiKey).
 */
export async function revokeApiKey(
  deps: Pick<ServiceDeps, "db" | "now"> & AuthChangeDeps,
  input: { tenantId: string; keyId: string; actor: Actor },
): Promise<ApiKeyRecord> {
  return deps.db.transaction(async (tx) => {
    const key = await findTenantApiKey(tx, { tenantId: input.tenantId, keyId: input.keyId });
    if (!key) throw new AppError("NOT_FOUND", "credential not found");
    await assertMayManageApiKey(tx, input.actor, key);
    const row = await revokeTenantApiKey(tx, { tenantId: input.tenantId, keyId: input.keyId, revokedAt: deps.now() });
    if (!row) throw new AppError("NOT_FOUND", "credential not found");
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "credential.revoked",
      target: { type: "api_key", id: input.keyId },
    });
    await announceAuthChange(tx, `key:${input.keyId}`, deps.authenticator);
    return toApiKeyRecord(row, deps.now());
  });
}
