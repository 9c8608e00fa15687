import { getTransaction } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_PENDING_TRANSACTION } from "./examples";
import { transactionIdParam, transactionRecord } from "./schemas";

export const getTransactionProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/transactions/{transactionId}",
      tags: ["transactions"],
      summary: "Get a transaction",
      description: "One transaction of the tenant with its current status; another tenant's transaction is 404.",
      protect: true,
    },
    errors: ["NOT_FOUND"],
    example: { input: { transactionId: EXAMPLE_PENDING_TRANSACTION.id }, output: EXAMPLE_PENDING_TRANSACTION },
  })
  .input(z.object({ transactionId: transactionIdParam }))
  .output(transactionRecord)
  .query(({ ctx, input }) => getTransaction(ctx.deps, { tenantId: ctx.auth.tenantId, transactionId: input.transactionId }));
