import { rejectTransaction, transactionRecordSchema } from "@qc/core";
import { z } from "zod";
import { multilineText } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_PENDING_TRANSACTION, transactionIdParam } from "./transaction-schemas";

export const rejectTransactionProcedure = authedProcedure
  .meta({
    scope: "signer",
    action: "transact",
    openapi: {
      method: "POST",
      path: "/v1/signer/transactions/{transactionId}/reject",
      tags: ["signer"],
      summary: "Reject a transaction",
      description:
        "The signer refuses to sign: the transaction ends `REJECTED` (`subStatus` `REJECTED_BY_SIGNER`, `statusReason` " +
        "= your reason) and the next queued transfer of the same source is released for signing. Only from " +
        "`PENDING_SIGNATURE`; otherwise 409 `INVALID_TRANSACTION_STATE`.",
      protect: true,
    },
    errors: ["NOT_FOUND", "INVALID_TRANSACTION_STATE"],
    example: {
      input: { transactionId: EXAMPLE_PENDING_TRANSACTION.id, reason: "destination not on the approved payee list" },
      output: {
        ...EXAMPLE_PENDING_TRANSACTION,
        status: "REJECTED",
        subStatus: "REJECTED_BY_SIGNER",
        statusReason: "destination not on the approved payee list",
      },
    },
  })
  .input(
    z.object({
      transactionId: transactionIdParam,
      reason: multilineText()
        .trim()
        .min(1)
        .max(1000)
        .meta({ description: "why the signer refused; shown as the transaction's statusReason" }),
    }),
  )
  .output(transactionRecordSchema)
  .mutation(({ ctx, input }) =>
    rejectTransaction(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      transactionId: input.transactionId,
      reason: input.reason,
      actor: ctx.actor,
    }),
  );
