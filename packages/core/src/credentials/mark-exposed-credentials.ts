import { listVerifiedAdminEmails, markApiKeyExposed } from "@qc/db/queries";
import { anonymousActor, auditAction } from "../audit/actor";
import { parseCredentials } from "../auth/tokens";
import type { ServiceDeps } from "../deps/service-deps";
import { queueEmail } from "../email/queue-email";

/**
 * CONTRACT §10: an API key that arrived over plain HTTP is compromised. The key (if it exists)
 * is marked exposed and audited, the tenant's admins are emailed, and the dashboard asks for
 * rotation (the key's `exposed` flag). The request itself was
 * answered 308 and processed nothing; the secret is not checked (an attacker learns nothing).
 */
export async function markExposedCredentials(
  deps: Pick<ServiceDeps, "db" | "now" | "jobs">,
  input: { authorization: string; ip: string; requestId?: string },
): Promise<{ keyId: string; tenantId: string } | null> {
  const credentials = parseCredentials(input.authorization, undefined);
  if (credentials.kind !== "api_key") return null;
  return deps.db.transaction(async (tx) => {
    const key = await markApiKeyExposed(tx, { keyId: credentials.keyId, exposedAt: deps.now() });
    if (!key) return null;
    await auditAction(tx, anonymousActor(input), {
      tenantId: key.tenantId,
      action: "credential.exposed",
      target: { type: "api_key", id: key.keyId },
      details: { transport: "http" },
    });
    const admins = await listVerifiedAdminEmails(tx, { tenantId: key.tenantId });
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
