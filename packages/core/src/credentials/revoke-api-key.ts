import { and, eq, schema, type Database } from "@qc/db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { announceAuthChange } from "../auth/authenticator";
import { AppError } from "../errors";
import { toApiKeyRecord, type ApiKeyRecord } from "./api-key-record";

/** Revokes at once (no grace); idempotent. Every instance drops the key from its cache on commit. */
export async function revokeApiKey(
  deps: { db: Database; now(): Date },
  input: { tenantId: string; keyId: string; userId: string; requestId?: string; ip?: string },
): Promise<ApiKeyRecord> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(schema.apiKeys)
      .set({ status: "REVOKED", revokedAt: deps.now() })
      .where(and(eq(schema.apiKeys.keyId, input.keyId), eq(schema.apiKeys.tenantId, input.tenantId)))
      .returning();
    if (!row) throw new AppError("NOT_FOUND", "credential not found");
    await recordAuditEvent(tx, {
      action: "credential.revoked",
      actorType: "user",
      actorId: input.userId,
      tenantId: input.tenantId,
      targetType: "api_key",
      targetId: input.keyId,
      requestId: input.requestId,
      ip: input.ip,
    });
    await announceAuthChange(tx, `key:${input.keyId}`);
    return toApiKeyRecord(row, deps.now());
  });
}
