import { revokeUserSession } from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";

/** Ends a dashboard session at once (revoked_at); idempotent: only the first call is audited. */
export async function logOut(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: { tenantId: string; userId: string; sessionId: string; actor: Actor },
): Promise<{ status: "LOGGED_OUT" }> {
  await deps.db.transaction(async (tx) => {
    const revoked = await revokeUserSession(tx, {
      tenantId: input.tenantId,
      userId: input.userId,
      sessionId: input.sessionId,
      revokedAt: deps.now(),
    });
    if (!revoked) return;
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "auth.logged_out",
      target: { type: "session", id: input.sessionId },
    });
  });
  return { status: "LOGGED_OUT" };
}
