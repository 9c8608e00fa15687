import { schema, type Database } from "@qc/db";
import { recordAuditEvent } from "../audit/record-audit-event";
import type { Scope } from "../auth/scopes";
import { generateApiKeyId, generateApiKeySecret, hashApiSecret } from "../auth/tokens";
import { AppError } from "../errors";
import { toApiKeyRecord, type ApiKeyRecord } from "./api-key-record";

export interface CreateApiKeyInput {
  tenantId: string;
  userId: string | null;
  label: string;
  scopes?: Scope[];
  expiresAt?: Date | null;
  requestId?: string;
  ip?: string;
}

export interface CreateApiKeyDeps {
  db: Database;
  pepper: Buffer;
  now(): Date;
}

/** Issues a key; the plaintext secret is returned here and never again (only its HMAC is kept). */
export async function createApiKey(deps: CreateApiKeyDeps, input: CreateApiKeyInput): Promise<ApiKeyRecord & { secret: string }> {
  const now = deps.now();
  if (input.expiresAt && input.expiresAt <= now) {
    throw new AppError("VALIDATION_FAILED", "expiresAt must be in the future", { details: { fields: [{ path: "expiresAt", message: "must be in the future" }] } });
  }
  const keyId = generateApiKeyId();
  const secret = generateApiKeySecret();
  const row = await deps.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(schema.apiKeys)
      .values({
        tenantId: input.tenantId,
        keyId,
        secretHash: hashApiSecret(deps.pepper, secret),
        label: input.label,
        scopes: [...new Set(input.scopes ?? [])],
        expiresAt: input.expiresAt ?? null,
        createdByUserId: input.userId,
      })
      .returning();
    await recordAuditEvent(tx, {
      action: "credential.created",
      actorType: input.userId ? "user" : "system",
      actorId: input.userId,
      tenantId: input.tenantId,
      targetType: "api_key",
      targetId: keyId,
      requestId: input.requestId,
      ip: input.ip,
      details: { label: input.label, scopes: input.scopes ?? [], expiresAt: input.expiresAt?.toISOString() ?? null },
    });
    return inserted!;
  });
  return { ...toApiKeyRecord(row, now), secret };
}
