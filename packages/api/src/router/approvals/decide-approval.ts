import { decideApproval, transactionRecordSchema } from "@qc/core";
import { z } from "zod";
import { multilineText } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { transactionIdParam } from "../transactions/schemas";
import { EXAMPLE_APPROVAL_DECISION, EXAMPLE_AWAITING_APPROVAL } from "./examples";

const SIGNATURE_EXAMPLE_HEX = `0x${"ab".repeat(4627)}`;

/**
 * The body of a decision, a transfer's or an address-book entry's (CONTRACT §15, §16): an approval
 * carries `keyId` and `signature`, a rejection a `reason`.
 */
export const approvalDecisionFields = {
  decision: z.enum(["APPROVED", "REJECTED"]),
  keyId: z.uuid().optional().meta({ description: "APPROVED only: one of your active approval keys" }),
  signature: z
    .string()
    .max(2 * 4627 + 2)
    .optional()
    .meta({
      description: "APPROVED only: ML-DSA-87 signature (hex), context QUANTUM-APPROVAL-v1, over the 32 bytes of the approvalHash",
    }),
  reason: multilineText().trim().min(1).max(1000).optional().meta({ description: "REJECTED only (and required there): why" }),
};

type DecisionBody = {
  decision: "APPROVED" | "REJECTED";
  keyId?: string | undefined;
  signature?: string | undefined;
  reason?: string | undefined;
};

export function refineApprovalDecision(input: DecisionBody, ctx: z.RefinementCtx) {
  const approved = input.decision === "APPROVED";
  if (approved && (input.keyId === undefined || input.signature === undefined))
    ctx.addIssue({ code: "custom", path: ["signature"], message: "an approval carries keyId and signature" });
  if (approved && input.reason !== undefined) ctx.addIssue({ code: "custom", path: ["reason"], message: "only a rejection has a reason" });
  if (!approved && input.reason === undefined) ctx.addIssue({ code: "custom", path: ["reason"], message: "a rejection says why" });
  if (!approved && (input.keyId !== undefined || input.signature !== undefined))
    ctx.addIssue({ code: "custom", path: ["signature"], message: "a rejection is not signed" });
}

/** The service's input from a body that passed `refineApprovalDecision`. */
export const toApprovalDecision = (input: DecisionBody) =>
  input.decision === "APPROVED"
    ? { decision: "APPROVED" as const, keyId: input.keyId!, signature: input.signature! }
    : { decision: "REJECTED" as const, reason: input.reason! };

const decisionInput = z.object({ transactionId: transactionIdParam, ...approvalDecisionFields }).superRefine(refineApprovalDecision);

export const decideApprovalProcedure = authedProcedure
  .meta({
    scope: "signer",
    action: "approve",
    openapi: {
      method: "POST",
      path: "/v1/transactions/{transactionId}/approvals",
      tags: ["approvals"],
      summary: "Approve or reject a transaction awaiting approval",
      description:
        '`{decision: "APPROVED", keyId, signature}` — an ML-DSA-87 signature by one of your approval keys, context ' +
        '`QUANTUM-APPROVAL-v1`, over the transaction\'s `approvalHash` — or `{decision: "REJECTED", reason}`. One decision ' +
        "per member; the initiator may reject but never approve (403 `SELF_APPROVAL_FORBIDDEN`); a member in none of the " +
        "required approver groups: 403 `NOT_AN_APPROVER`; a transaction not `AWAITING_APPROVAL`, or a second decision: 409 " +
        "`INVALID_TRANSACTION_STATE`; an unknown key or a signature that does not verify: 400 `INVALID_SIGNATURE`. A " +
        "rejection ends the transaction `REJECTED` / `REJECTED_BY_APPROVER`; the approval that completes every group's " +
        "quorum moves it to `QUEUED`, from where it is released for signing as any allowed transfer. Answers the record.",
      protect: true,
    },
    errors: ["NOT_FOUND", "INVALID_TRANSACTION_STATE", "SELF_APPROVAL_FORBIDDEN", "NOT_AN_APPROVER", "INVALID_SIGNATURE"],
    example: {
      input: {
        transactionId: EXAMPLE_AWAITING_APPROVAL.id,
        decision: "APPROVED",
        keyId: EXAMPLE_APPROVAL_DECISION.keyId,
        signature: SIGNATURE_EXAMPLE_HEX,
      },
      output: {
        ...EXAMPLE_AWAITING_APPROVAL,
        approvals: { ...EXAMPLE_AWAITING_APPROVAL.approvals, decisions: [EXAMPLE_APPROVAL_DECISION] },
      },
    },
  })
  .input(decisionInput)
  .output(transactionRecordSchema)
  .mutation(({ ctx, input }) =>
    decideApproval(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      transactionId: input.transactionId,
      actor: ctx.actor,
      ...toApprovalDecision(input),
    }),
  );
