import { revokeTenantApiKey } from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import { announceAuthChange, type AuthChangeDeps } from "../auth/authenticator";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { toApiKeyRecord, type ApiKeyRecord } from "./api-key-record";

/** Revokes at once (no grace); idempotent. Every instance drops the key from its cache on commit. */
export async function revokeApiKey(
  deps: Pick<ServiceDeps, "db" | "now"> & AuthChangeDeps,
  input: { tenantId: string; keyId: string; actor: Actor },
): Promise<ApiKeyRecord> {
  return deps.db.transaction(async (tx) => {
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
