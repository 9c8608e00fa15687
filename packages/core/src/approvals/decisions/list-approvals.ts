import { findTransaction, findTransactionApprovals, listPendingApprovalsFor } from "@qc/db/queries";
import { z } from "zod";
import { actingMemberId, type Actor } from "../../audit/actor";
import type { ServiceDeps } from "../../deps/service-deps";
import { AppError } from "../../errors";
import { approvalsSchema, transactionRecordSchema } from "../../records/record-schemas";
import { toTransactionRecord } from "../../transfers/transaction-record";
import { approvalRequestOf, approvalRequestSchema, decisionRecordOf } from "./approval-request";

/** At most this many transactions in one answer of `GET /v1/approvals`, oldest first. */
export const PENDING_APPROVALS_LIMIT = 200;

export const pendingApprovalsSchema = z.object({
  transactions: z.array(transactionRecordSchema.extend({ approvalRequest: approvalRequestSchema })),
});
export type PendingApprovals = z.output<typeof pendingApprovalsSchema>;

/**
 * `GET /v1/approvals?status=PENDING` (CONTRACT §15): the tenant's transactions in AWAITING_APPROVAL
 * that require an approver group the caller (the session's member, or the member whose API key it
 * is) belongs to and on which the caller has not decided, oldest first, each with the
 * `approvalRequest` a signer rebuilds and signs: `{approvalHash, context, fields}`.
 */
export async function listPendingApprovals(
  deps: Pick<ServiceDeps, "db">,
  input: { tenantId: string; actor: Actor },
): Promise<PendingApprovals> {
  const userId = actingMemberId(input.actor);
  if (!userId) return { transactions: [] };
  const rows = await listPendingApprovalsFor(deps.db, { tenantId: input.tenantId, userId, limit: PENDING_APPROVALS_LIMIT });
  return { transactions: rows.map((row) => ({ ...toTransactionRecord(row), approvalRequest: approvalRequestOf(row) })) };
}

export const transactionApprovalsSchema = approvalRequestSchema.extend({
  required: approvalsSchema.shape.required,
  deadline: z
    .string()
    .nullable()
    .meta({ description: "when a transfer still awaiting approval ends EXPIRED / APPROVAL_TIMEOUT; null when none was required" }),
  decisions: z.array(
    approvalsSchema.shape.decisions.element.extend({
      approvalHash: z
        .string()
        .meta({ description: "the hash the decision was taken over (equal to `approvalHash` unless the row changed)" }),
      signature: z
        .string()
        .nullable()
        .meta({ description: "ML-DSA-87, context QUANTUM-APPROVAL-v1, over approvalHash; null for a rejection" }),
      publicKey: z.string().nullable().meta({ description: "the approval key's ML-DSA-87 public key (kept after revocation)" }),
      keyRevokedAt: z.string().nullable(),
    }),
  ),
});
export type TransactionApprovals = z.output<typeof transactionApprovalsSchema>;

/**
 * `GET /v1/transactions/{id}/approvals`: everything an auditor needs to verify the transaction's
 * approvals offline, years later: the `approvalHash` rebuilt from the record's fields (and those
 * fields), the required groups, and every decision with its signature and the public key it was
 * signed with (revoked keys included). A transaction that required no approval has none.
 */
export async function getTransactionApprovals(
  deps: Pick<ServiceDeps, "db">,
  input: { tenantId: string; transactionId: string },
): Promise<TransactionApprovals> {
  const row = await findTransaction(deps.db, input.tenantId, input.transactionId);
  if (!row) throw new AppError("NOT_FOUND", "transaction not found");
  const decisions = row.approvals ? await findTransactionApprovals(deps.db, input) : [];
  return {
    ...approvalRequestOf(row),
    required: row.approvals?.required ?? [],
    deadline: row.approvalDeadline ? row.approvalDeadline.toISOString() : null,
    decisions: decisions.map((d) => ({
      ...decisionRecordOf(d),
      approvalHash: d.approvalHash,
      signature: d.signature,
      publicKey: d.publicKey,
      keyRevokedAt: d.keyRevokedAt ? d.keyRevokedAt.toISOString() : null,
    })),
  };
}
