import { lockTenantInvitation, revokeTenantInvitation } from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { assertMayManageMember, touchesOwnership } from "./assert-may-manage-member";

/**
 * Revokes a pending invitation: its link stops working at once (CONTRACT §14). Revoking an
 * invitation to be an OWNER takes `manage_owners`, like sending it. An invitation that is no
 * longer pending (accepted, revoked) stays as it is and the answer is the same (204); another
 * tenant's invitation is 404, as if unknown.
 */
export async function revokeInvitation(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: { tenantId: string; invitationId: string; actor: Actor },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const invitation = await lockTenantInvitation(tx, { tenantId: input.tenantId, invitationId: input.invitationId });
    if (!invitation) throw new AppError("NOT_FOUND", "invitation not found");
    await assertMayManageMember(tx, input.actor, input.tenantId, {
      ownership: touchesOwnership(invitation.role),
      what: `revoke an invitation to be ${invitation.role}`,
    });
    if (!(await revokeTenantInvitation(tx, { tenantId: input.tenantId, invitationId: input.invitationId, revokedAt: deps.now() }))) return;
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "invitation.revoked",
      target: { type: "invitation", id: input.invitationId },
      details: { email: invitation.email, role: invitation.role },
    });
  });
}
