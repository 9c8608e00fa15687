import { cancelTransaction } from "@qc/core";
import { z } from "zod";
import { EXAMPLE } from "../../openapi-examples";
import { multilineText } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_PENDING_TRANSACTION } from "./examples";
import { transactionIdParam, transactionRecord } from "./schemas";

export const cancelTransactionProcedure = authedProcedure
  .meta({
    scope: "write",
    action: "transact",
    idempotencyKey: "optional",
    openapi: {
      method: "POST",
      path: "/v1/transactions/{transactionId}/cancel",
      tags: ["transactions"],
      summary: "Cancel a transaction",
      description:
        "`SUBMITTED`, `AWAITING_APPROVAL`, `QUEUED` or `PENDING_SIGNATURE` → `CANCELLED` (`CANCELLED_BY_USER`); the source's next queued " +
        "transfer is then released for signing. Any other status is 409 `INVALID_TRANSACTION_STATE` (a signed transfer " +
        "can no longer be cancelled).",
      protect: true,
    },
    errors: ["NOT_FOUND", "INVALID_TRANSACTION_STATE"],
    example: {
      input: { transactionId: EXAMPLE_PENDING_TRANSACTION.id, reason: "duplicate payout" },
      output: {
        ...EXAMPLE_PENDING_TRANSACTION,
        status: "CANCELLED",
        subStatus: "CANCELLED_BY_USER",
        statusReason: "duplicate payout",
        updatedAt: EXAMPLE.updatedAt,
      },
    },
  })
  .input(z.object({ transactionId: transactionIdParam, reason: multilineText().trim().min(1).max(500).optional() }))
  .output(transactionRecord)
  .mutation(({ ctx, input }) =>
    cancelTransaction(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      transactionId: input.transactionId,
      reason: input.reason,
      actor: ctx.actor,
    }),
  );
