import { getTransactionApprovals, transactionApprovalsSchema } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { transactionIdParam } from "../transactions/schemas";
import {
  EXAMPLE_APPROVAL_DECISION,
  EXAMPLE_APPROVAL_KEY,
  EXAMPLE_APPROVAL_REQUEST,
  EXAMPLE_AWAITING_APPROVAL,
  EXAMPLE_SIGNATURE,
} from "./examples";

export const getTransactionApprovalsProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/transactions/{transactionId}/approvals",
      tags: ["approvals"],
      summary: "A transaction's approvals, verifiable offline",
      description:
        "The `approvalHash` rebuilt from the transaction's `fields`, the required groups, and every decision with its " +
        "ML-DSA-87 `signature` and the approval key's `publicKey` (revoked keys included): an auditor verifies each " +
        "approval offline (docs/approvals.md). A transaction that required no approval has no decisions.",
      protect: true,
    },
    errors: ["NOT_FOUND"],
    example: {
      input: { transactionId: EXAMPLE_AWAITING_APPROVAL.id },
      output: {
        ...EXAMPLE_APPROVAL_REQUEST,
        required: EXAMPLE_AWAITING_APPROVAL.approvals.required,
        deadline: "2026-11-26T09:30:00.000Z",
        decisions: [
          {
            ...EXAMPLE_APPROVAL_DECISION,
            approvalHash: EXAMPLE_APPROVAL_REQUEST.approvalHash,
            signature: EXAMPLE_SIGNATURE,
            publicKey: EXAMPLE_APPROVAL_KEY.publicKey,
            keyRevokedAt: null,
          },
        ],
      },
    },
  })
  .input(z.object({ transactionId: transactionIdParam }))
  .output(transactionApprovalsSchema)
  .query(({ ctx, input }) => getTransactionApprovals(ctx.deps, { tenantId: ctx.auth.tenantId, transactionId: input.transactionId }));
