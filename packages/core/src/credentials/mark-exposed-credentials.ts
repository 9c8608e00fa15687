import { and, eq, isNull, schema, type Database } from "@qc/db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { parseCredentials } from "../auth/tokens";
import { queueEmail } from "../email/queue-email";
import type { JobQueue } from "../jobs/queue";

/**
 * CONTRACT §10: an API key that arrived over plain HTTP is compromised. The key (if it exists)
 * is marked exposed and audited, the tenant's admins are emailed, and the dashboard asks for
 * rotation (the key's `exposed` flag). The request itself was
 * answered 308 and processed nothing; the secret is not checked (an attacker learns nothing).
 */
export async function markExposedCredentials(
  deps: { db: Database; now(): Date; jobs: JobQueue },
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
    const admins = await tx
      .select({ email: schema.users.email })
      .from(schema.users)
      .where(and(eq(schema.users.tenantId, key.tenantId), eq(schema.users.role, "ADMIN"), eq(schema.users.status, "EMAIL_VERIFIED")));
    for (const admin of admins) {
      await queueEmail(tx, deps.jobs, {
        tenantId: key.tenantId,
        to: admin.email,
        kind: "credential_exposed",
        subject: `API key ${key.keyId} was sent over plain HTTP: rotate it`,
        text: [
          `Your API key ${key.keyId} was sent to Quantum Custody over plain HTTP from ${input.ip}.`,
          "The request was refused, but anyone on that network path may have seen the secret.",
          "Rotate the key now: POST /v1/credentials/rotate, or in the dashboard.",
        ].join("\n"),
      });
    }
    return key;
  });
}
