import { APPROVAL_CONTEXT } from "@qc/chain";
import { findTransactionApprovals, type TransactionRow } from "@qc/db/queries";
import type { ServiceDeps } from "../../deps/service-deps";
import { approvalRequestOf } from "./approval-request";
import {
  describeShortfall,
  groupsCountedFor,
  tallyQuorum,
  whyApprovalDoesNotCount,
  type ApprovalRequirement,
  type JudgedApproval,
  type QuorumTally,
} from "./count-approvals";

export type CountedApprovals =
  | { met: true; tally: QuorumTally }
  /** `reason`: what stopped counting and which groups fell short, for the status reason. */
  | { met: false; tally: QuorumTally; reason: string };

/**
 * Fail closed before release (CONTRACT §15): every approval of a transaction that required some
 * is judged again now. It stops counting when its member was removed or left the group, its key
 * was revoked, or its ML-DSA-87 signature (context QUANTUM-APPROVAL-v1, on the verifier's worker
 * threads) does not verify under its key over the `approvalHash` rebuilt from the row as it is now.
 * The rest are tallied against every required group's quorum.
 */
export async function verifyCountedApprovals(deps: Pick<ServiceDeps, "db" | "verifier">, row: TransactionRow): Promise<CountedApprovals> {
  const { approvalHash } = approvalRequestOf(row);
  const approvals = await findTransactionApprovals(deps.db, { tenantId: row.tenantId, transactionId: row.id });
  return countVerifiedApprovals(deps, { required: row.approvals?.required ?? [], approvalHash, approvals });
}

/**
 * The approvals among `approvals` that count now — member not removed and still in the group, key
 * not revoked, signature verifying over `approvalHash` (rebuilt by the caller from the row as it is
 * now) — tallied against `required`. What a transfer's release and an address-book entry's quorum
 * both count with.
 */
export async function countVerifiedApprovals(
  deps: Pick<ServiceDeps, "verifier">,
  input: { required: readonly ApprovalRequirement[]; approvalHash: string; approvals: readonly JudgedApproval[] },
): Promise<CountedApprovals> {
  const why: string[] = [];
  const counted: JudgedApproval[] = [];
  await Promise.all(
    input.approvals
      .filter((approval) => approval.decision === "APPROVED")
      .map(async (approval) => {
        const standing = whyApprovalDoesNotCount(approval);
        if (standing) return void why.push(standing);
        const verified = await deps.verifier.verify({
          signingHash: input.approvalHash,
          signature: approval.signature!,
          publicKey: approval.publicKey!,
          context: APPROVAL_CONTEXT,
        });
        if (!verified) return void why.push(`the approval of member ${approval.userId} does not verify over ${input.approvalHash}`);
        const left = approval.groupIds.filter((groupId) => !groupsCountedFor(approval).includes(groupId));
        if (left.length) why.push(`member ${approval.userId} is no longer in approver group(s) ${left.join(", ")}`);
        counted.push(approval);
      }),
  );
  const tally = tallyQuorum(input.required, counted);
  if (tally.met) return { met: true, tally };
  return {
    met: false,
    tally,
    reason: `approval quorum no longer met before release: ${[...why.sort(), describeShortfall(tally)].join("; ")}`,
  };
}
