import { and, eq, isNull, schema, type Database } from "@qc/db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { parseCredentials } from "../auth/tokens";

/**
 * CONTRACT §10: an API key that arrived over plain HTTP is compromised. The key (if it exists)
 * is marked exposed and audited; the dashboard then asks for rotation. The request itself was
 * answered 308 and processed nothing; the secret is not checked (an attacker learns nothing).
 */
export async function markExposedCredentials(
  deps: { db: Database; now(): Date },
  input: { authorization: string; ip: string; requestId?: string },
): Promise<{ keyId: string; tenantId: string } | null> {
  const credentials = parseCredentials(input.authorization, undefined);
  if (credentials.kind !== "api_key") return null;
  return deps.db.transaction(async (tx) => {
    const [key] = await tx
      .update(schema.apiKeys)
      .set({ exposedAt: deps.now() })
      .where(and(eq(schema.apiKeys.keyId, credentials.keyId), isNull(schema.apiKeys.exposedAt)))
      .returning({ keyId: schema.apiKeys.keyId, tenantId: schema.apiKeys.tenantId });
    if (!key) return null;
    await recordAuditEvent(tx, {
      action: "credential.exposed",
      actorType: "anonymous",
      tenantId: key.tenantId,
      targetType: "api_key",
      targetId: key.keyId,
      requestId: input.requestId,
      ip: input.ip,
      details: { transport: "http" },
    });
    return key;
  });
}
