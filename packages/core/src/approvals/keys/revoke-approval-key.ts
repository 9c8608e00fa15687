import { findMemberApprovalKey, revokeMemberApprovalKey } from "@qc/db/queries";
import { auditAction, type Actor } from "../../audit/actor";
import type { ServiceDeps } from "../../deps/service-deps";
import { AppError } from "../../errors";
import type { CurrentMember } from "./approval-key-record";

/**
 * `DELETE /v1/members/me/approval-keys/{keyId}` (204): revokes one of the caller's member's own
 * keys with one conditional UPDATE (`revoked_at`; the row stays for auditors). Another member's
 * key, another tenant's or an unknown id is 404; a key already revoked is 409 CONFLICT. Approvals
 * signed with it stop counting for transfers not yet released (CONTRACT §15). Audited as
 * `approval_key.revoked`.
 */
export async function revokeApprovalKey(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: CurrentMember & { keyId: string; actor: Actor },
): Promise<void> {
  const userId = input.userId;
  if (!userId) throw new AppError("NOT_FOUND", "approval key not found");
  await deps.db.transaction(async (tx) => {
    const revoked = await revokeMemberApprovalKey(tx, { tenantId: input.tenantId, userId, keyId: input.keyId, revokedAt: deps.now() });
    if (!revoked) {
      if (await findMemberApprovalKey(tx, { tenantId: input.tenantId, userId, keyId: input.keyId }))
        throw new AppError("CONFLICT", "the approval key is already revoked");
      throw new AppError("NOT_FOUND", "approval key not found");
    }
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "approval_key.revoked",
      target: { type: "approval_key", id: revoked.id },
      details: { userId },
    });
  });
}
