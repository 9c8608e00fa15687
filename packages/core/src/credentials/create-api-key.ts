import { insertApiKey } from "@qc/db/queries";
import { auditAction, userActor, type Actor } from "../audit/actor";
import type { Scope } from "../auth/scopes";
import { generateApiKeyId, generateApiKeySecret, hashApiSecret } from "../auth/tokens";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { toApiKeyRecord, type ApiKeyRecord } from "./api-key-record";

export interface CreateApiKeyInput {
  tenantId: string;
  /** The member who creates the key: it acts with their current role (CONTRACT §14). */
  userId: string;
  label: string;
  scopes?: Scope[];
  expiresAt?: Date | null;
  /** Who asks (the request's actor); by default the member. */
  actor?: Actor;
}

/**
 * Issues a key; the plaintext secret is returned here and never again (only its HMAC with the
 * server's `pepper` is kept).
 */
export async function createApiKey(
  deps: Pick<ServiceDeps, "db" | "now">,
  pepper: Buffer,
  input: CreateApiKeyInput,
): Promise<ApiKeyRecord & { secret: string }> {
  const now = deps.now();
  if (input.expiresAt && input.expiresAt <= now) {
    throw new AppError("VALIDATION_FAILED", "expiresAt must be in the future", {
      details: { fields: [{ path: "expiresAt", message: "must be in the future" }] },
    });
  }
  const keyId = generateApiKeyId();
  const secret = generateApiKeySecret();
  const actor = input.actor ?? userActor(input.userId);
  const row = await deps.db.transaction(async (tx) => {
    const inserted = await insertApiKey(tx, {
      tenantId: input.tenantId,
      keyId,
      secretHash: hashApiSecret(pepper, secret),
      label: input.label,
      scopes: [...new Set(input.scopes ?? [])],
      expiresAt: input.expiresAt ?? null,
      createdByUserId: input.userId,
    });
    await auditAction(tx, actor, {
      tenantId: input.tenantId,
      action: "credential.created",
      target: { type: "api_key", id: keyId },
      details: { label: input.label, scopes: input.scopes ?? [], expiresAt: input.expiresAt?.toISOString() ?? null },
    });
    return inserted;
  });
  return { ...toApiKeyRecord(row, now), secret };
}
