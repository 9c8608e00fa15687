import { findApiKeySecretHash, listVerifiedAdminEmails, markApiKeyExposed } from "@qc/db/queries";
import { anonymousActor, auditAction } from "../audit/actor";
import { digestsEqual, hashApiSecret, parseCredentials } from "../auth/tokens";
import type { ServiceDeps } from "../deps/service-deps";
import { queueEmail } from "../email/queue-email";

/**
 * CONTRACT §10: an API key that arrived over plain HTTP is compromised. The key (if it exists)
 * is marked exposed and audited, the tenant's admins are emailed, and the dashboard asks for
 * rotation (the key's `exposed` flag). The request itself was answered 308 and processed nothing.
 *
 * Only the key's real secret marks it: a key id alone is not secret (webhooks and emails name
 * it), and marking by id would let anyone flag any key and mail its tenant's admins at will
 * (security review L2). The secret is checked as the authenticator checks it: the keyed hash,
 * compared in constant time, against a dummy digest when the key is unknown. A wrong secret marks
 * nothing and is not counted or audited: the request is answered the same 308 either way.
 */
export async function markExposedCredentials(
  // The web process's configuration carries the API-key pepper (the daemon's has none).
  deps: Pick<ServiceDeps, "db" | "now" | "jobs"> & { config: { apiKeyPepper: Buffer } },
  input: { authorization: string; ip: string; requestId?: string },
): Promise<{ keyId: string; tenantId: string } | null> {
  const credentials = parseCredentials(input.authorization, undefined);
  if (credentials.kind !== "api_key") return null;
  const stored = await findApiKeySecretHash(deps.db, { keyId: credentials.keyId });
  const presented = hashApiSecret(deps.config.apiKeyPepper, credentials.secret);
  if (!digestsEqual(presented, stored?.secretHash ?? "0".repeat(64)) || !stored) return null;
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
