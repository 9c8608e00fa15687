import { listPendingApprovals, pendingApprovalsSchema } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_APPROVAL_REQUEST, EXAMPLE_AWAITING_APPROVAL } from "./examples";

export const listPendingApprovalsProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/approvals",
      tags: ["approvals"],
      summary: "Transactions awaiting your approval",
      description:
        "The tenant's `AWAITING_APPROVAL` transactions that require an approver group you are in and on which you have not " +
        "decided (up to 200, oldest first), each with `approvalRequest` `{approvalHash, context, fields}`: rebuild " +
        "`approvalHash` from `fields` yourself before signing it.",
      protect: true,
    },
    errors: [],
    example: {
      input: { status: "PENDING" },
      output: { transactions: [{ ...EXAMPLE_AWAITING_APPROVAL, approvalRequest: EXAMPLE_APPROVAL_REQUEST }] },
    },
  })
  .input(z.object({ status: z.literal("PENDING").default("PENDING").meta({ description: "only PENDING: awaiting your decision" }) }))
  .output(pendingApprovalsSchema)
  .query(({ ctx }) => listPendingApprovals(ctx.deps, { tenantId: ctx.auth.tenantId, actor: ctx.actor }));
