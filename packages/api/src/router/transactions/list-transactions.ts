import { listTransactions, transactionStatusSchema } from "@qc/core";
import { z } from "zod";
import { EXAMPLE_LAST_PAGE } from "../../openapi-examples";
import { pageInfo, pageQuery, text } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_PENDING_TRANSACTION } from "./examples";
import { transactionRecord } from "./schemas";

export const listTransactionsProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/transactions",
      tags: ["transactions"],
      summary: "List transactions",
      description:
        "The tenant's transactions, newest first, optionally of one status, one source wallet or one `externalId`. " +
        "Paginate with `cursor`.",
      protect: true,
    },
    example: {
      input: { status: "PENDING_SIGNATURE", sourceWalletId: EXAMPLE_PENDING_TRANSACTION.sourceWalletId, limit: 50 },
      output: { transactions: [EXAMPLE_PENDING_TRANSACTION], page: EXAMPLE_LAST_PAGE },
    },
  })
  .input(
    pageQuery.extend({
      status: transactionStatusSchema.optional(),
      sourceWalletId: z.uuid().optional(),
      externalId: text().min(1).max(255).optional(),
    }),
  )
  .output(z.object({ transactions: z.array(transactionRecord), page: pageInfo }))
  .query(({ ctx, input }) => listTransactions(ctx.deps, { tenantId: ctx.auth.tenantId, ...input }));
