import { APPROVAL_CONTEXT } from "@qc/chain";
import type { Transaction } from "@qc/db";
import {
  findMemberApprovalKey,
  findMemberApproverGroups,
  findTransaction,
  findTransactionApprovals,
  insertTransactionApproval,
  lockTransactionStatus,
  updateTransactionWhereStatus,
  type TransactionRow,
} from "@qc/db/queries";
import { actingMemberId, auditAction, type Actor } from "../../audit/actor";
import type { ServiceDeps } from "../../deps/service-deps";
import { AppError } from "../../errors";
import { emitEvent } from "../../events/emit-event";
import type { TransactionRecord } from "../../records/record-schemas";
import { releaseNextJob } from "../../transfers/release-next-job";
import { toTransactionRecord } from "../../transfers/transaction-record";
import { transitionTransaction } from "../../transfers/transition-transaction";
import { canonicalSignature } from "../../transfers/verify-transaction-signature";
import { approvalRequestOf, decisionRecordOf } from "./approval-request";
import { tallyQuorum, whyApprovalDoesNotCount } from "./count-approvals";

export type ApprovalDecisionInput = { decision: "APPROVED"; keyId: string; signature: string } | { decision: "REJECTED"; reason: string };

type DecideDeps = Pick<ServiceDeps, "db" | "jobs" | "now" | "verifier">;

const notAwaiting = (status: string | undefined, already = false) =>
  new AppError(
    "INVALID_TRANSACTION_STATE",
    already ? "you already decided on this transaction" : `a ${status} transaction takes no approval decision; only AWAITING_APPROVAL does`,
    { details: { status } },
  );

/**
 * `POST /v1/transactions/{id}/approvals` (CONTRACT §15): one member's decision on a transaction
 * awaiting approval. Refused, in this order: an unknown id (404); a transaction not in
 * AWAITING_APPROVAL (409 INVALID_TRANSACTION_STATE); an approval by its initiator (403
 * SELF_APPROVAL_FORBIDDEN: the initiator may only reject); a caller in none of the required groups
 * (403 NOT_AN_APPROVER); an approval whose key is not one of the caller's active approval keys, or
 * whose ML-DSA-87 signature (context QUANTUM-APPROVAL-v1, on the verifier's worker threads) does
 * not verify over the `approvalHash` rebuilt from the row (400 INVALID_SIGNATURE).
 *
 * Then one database transaction under the transaction's row lock (so two decisions arriving at
 * once are taken one after the other): AWAITING_APPROVAL again, the decision stored (a second one
 * by the same member: 409), the record's `approvals` projection updated, an audit row and the
 * `transaction.approval_recorded` event; a rejection ends it REJECTED / REJECTED_BY_APPROVER, and
 * the approval that completes every group's quorum (counting only approvals that still count, one
 * member's once for each required group they are in) moves it to QUEUED, from where release-next
 * releases it as any cleared transfer. Both enqueue release-next. Answers the record as committed.
 */
export async function decideApproval(
  deps: DecideDeps,
  input: { tenantId: string; transactionId: string; actor: Actor } & ApprovalDecisionInput,
): Promise<TransactionRecord> {
  const row = await findTransaction(deps.db, input.tenantId, input.transactionId);
  if (!row) throw new AppError("NOT_FOUND", "transaction not found");
  if (row.status !== "AWAITING_APPROVAL" || !row.approvals) throw notAwaiting(row.status);
  const memberId = actingMemberId(input.actor);
  if (input.decision === "APPROVED" && memberId !== null && row.initiatedByUserId === memberId)
    throw new AppError("SELF_APPROVAL_FORBIDDEN", "the initiator of a transaction may reject it but never approve it");
  const groupIds = memberId
    ? await findMemberApproverGroups(deps.db, {
        tenantId: input.tenantId,
        userId: memberId,
        groupIds: row.approvals.required.map((requirement) => requirement.groupId),
      })
    : [];
  if (!memberId || groupIds.length === 0)
    throw new AppError("NOT_AN_APPROVER", "you are in none of the approver groups this transaction requires");
  const request = approvalRequestOf(row);
  const signed =
    input.decision === "APPROVED"
      ? await verifiedApproval(deps, { tenantId: row.tenantId, memberId, keyId: input.keyId, signature: input.signature, ...request })
      : null;

  return deps.db.transaction(async (tx) => {
    const status = await lockTransactionStatus(tx, input.tenantId, input.transactionId);
    if (status !== "AWAITING_APPROVAL") throw notAwaiting(status);
    const decidedAt = deps.now();
    const stored = await insertTransactionApproval(tx, {
      tenantId: input.tenantId,
      transactionId: input.transactionId,
      userId: memberId,
      decision: input.decision,
      groupIds,
      keyId: signed?.keyId ?? null,
      approvalHash: request.approvalHash,
      signature: signed?.signature ?? null,
      reason: input.decision === "REJECTED" ? input.reason : null,
      decidedAt,
    });
    if (!stored) throw notAwaiting(status, true);
    const recorded = await recordDecision(tx, input.actor, stored);
    if (input.decision === "REJECTED") return settle(deps, tx, input.actor, recorded, "REJECTED", input.reason);
    const approvals = (await findTransactionApprovals(tx, { tenantId: input.tenantId, transactionId: input.transactionId })).filter(
      (approval) => whyApprovalDoesNotCount(approval) === null,
    );
    if (!tallyQuorum(recorded.approvals!.required, approvals).met) return toTransactionRecord(recorded);
    return settle(deps, tx, input.actor, recorded, "QUEUED", "approved: every group reached its quorum");
  });
}

/**
 * The approval's key and canonical signature once its ML-DSA-87 signature (context
 * QUANTUM-APPROVAL-v1, on the verifier's worker threads) verifies over `approvalHash` under one of
 * the member's active approval keys; 400 INVALID_SIGNATURE otherwise. Transfers and address-book
 * entries are approved alike; only the hash differs.
 */
export async function verifiedApproval(
  deps: Pick<ServiceDeps, "db" | "verifier">,
  input: { tenantId: string; memberId: string; keyId: string; signature: string; approvalHash: string },
): Promise<{ keyId: string; signature: string }> {
  const key = await findMemberApprovalKey(deps.db, { tenantId: input.tenantId, userId: input.memberId, keyId: input.keyId });
  if (!key || key.revokedAt) throw new AppError("INVALID_SIGNATURE", "keyId is not one of your active approval keys");
  const signature = canonicalSignature(input.signature);
  const verified =
    signature !== undefined &&
    (await deps.verifier.verify({ signingHash: input.approvalHash, signature, publicKey: key.publicKey, context: APPROVAL_CONTEXT }));
  if (!verified)
    throw new AppError(
      "INVALID_SIGNATURE",
      `the signature does not verify under approval key ${key.id} over approvalHash ${input.approvalHash}`,
    );
  return { keyId: key.id, signature: signature! };
}

/**
 * The decision added to the record's `approvals` projection, with its audit row and the
 * `transaction.approval_recorded` event, in the decision's database transaction.
 */
async function recordDecision(
  tx: Transaction,
  actor: Actor,
  stored: NonNullable<Awaited<ReturnType<typeof insertTransactionApproval>>>,
): Promise<TransactionRow> {
  const current = (await findTransaction(tx, stored.tenantId, stored.transactionId))!;
  const decision = decisionRecordOf(stored);
  const approvals = { required: current.approvals!.required, decisions: [...current.approvals!.decisions, decision] };
  const key = { tenantId: stored.tenantId, transactionId: stored.transactionId };
  const updated = (await updateTransactionWhereStatus(tx, key, ["AWAITING_APPROVAL"], { approvals, updatedAt: stored.decidedAt }))!;
  await auditAction(tx, actor, {
    tenantId: stored.tenantId,
    action: "transaction.approval_recorded",
    target: { type: "transaction", id: stored.transactionId },
    details: { decision: stored.decision, groupIds: stored.groupIds, keyId: stored.keyId, reason: stored.reason },
  });
  await emitEvent(tx, {
    tenantId: stored.tenantId,
    type: "transaction.approval_recorded",
    aggregateId: stored.transactionId,
    data: { transaction: toTransactionRecord(updated), decision },
  });
  return updated;
}

/** AWAITING_APPROVAL → REJECTED / REJECTED_BY_APPROVER or → QUEUED, with release-next, in the decision's transaction. */
async function settle(
  deps: DecideDeps,
  tx: Transaction,
  actor: Actor,
  row: TransactionRow,
  to: "REJECTED" | "QUEUED",
  reason: string,
): Promise<TransactionRecord> {
  const moved = await transitionTransaction(
    deps,
    {
      tenantId: row.tenantId,
      transactionId: row.id,
      from: ["AWAITING_APPROVAL"],
      to,
      subStatus: to === "REJECTED" ? "REJECTED_BY_APPROVER" : null,
      reason,
      actor,
      jobs: (r) => [releaseNextJob(r)],
    },
    tx,
  );
  if (!moved.moved) throw notAwaiting(row.status);
  return toTransactionRecord(moved.row);
}
