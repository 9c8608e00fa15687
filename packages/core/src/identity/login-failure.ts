import { anonymousActor } from "../audit/actor";
import type { Authenticator, LoginAccount } from "../auth/authenticator";

/**
 * A refused login step (the password, or the passkey after it): counted towards the lockout of the
 * source and of the account, when one is known, and audited as `auth.failed` through the buffer,
 * naming the user when the attempt named one that exists (never the typed email: people type
 * passwords into it).
 */
export async function recordLoginFailure(
  authenticator: Authenticator,
  request: { ip: string; requestId?: string },
  attempt: { account: LoginAccount | undefined; user: { id: string; tenantId: string } | undefined; reason: string; via: string },
): Promise<void> {
  await authenticator.countFailure(request.ip, attempt.account);
  const actor = anonymousActor(request, attempt.user?.id ?? null);
  authenticator.recordRefusal({
    action: "auth.failed",
    actorType: actor.type,
    actorId: actor.id,
    tenantId: attempt.user?.tenantId ?? null,
    requestId: actor.requestId ?? null,
    ip: actor.ip ?? null,
    details: { reason: attempt.reason, counted: true, via: attempt.via },
  });
}
