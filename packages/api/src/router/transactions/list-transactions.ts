import { listTransactions, transactionStatusSchema } from "@qc/core";
import { TRANSACTION_TYPES } from "@qc/domain";
import { z } from "zod";
import { EXAMPLE_LAST_PAGE } from "../../openapi-examples";
import { pageInfo, pageQuery, text } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_DEPOSIT, EXAMPLE_PENDING_TRANSACTION } from "./examples";
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
        "The tenant's transactions, newest first, optionally of one status, one type (`DEPOSIT` for incoming transfers), " +
        "one source wallet, one wallet on either side (`walletId`: sent from it or deposited to it), one `externalId` or " +
        "one batch (`batchId`). " +
        "Paginate with `cursor`.",
      protect: true,
    },
    example: {
      // Both sides of one wallet: a deposit to it (newest) and a transfer from it.
      input: { walletId: EXAMPLE_PENDING_TRANSACTION.sourceWalletId, limit: 50 },
      output: { transactions: [EXAMPLE_DEPOSIT, EXAMPLE_PENDING_TRANSACTION], page: EXAMPLE_LAST_PAGE },
    },
  })
  .input(
    pageQuery.extend({
      status: transactionStatusSchema.optional(),
      type: z.enum(TRANSACTION_TYPES).optional(),
      sourceWalletId: z.uuid().optional(),
      walletId: z.uuid().optional().meta({ description: "the wallet on either side: the source, or a deposit's destination" }),
      externalId: text().min(1).max(255).optional(),
      batchId: z.uuid().optional().meta({ description: "the transfers of one batch (`POST /v1/transactions/batch`)" }),
    }),
  )
  .output(z.object({ transactions: z.array(transactionRecord), page: pageInfo }))
  .query(({ ctx, input }) => listTransactions(ctx.deps, { tenantId: ctx.auth.tenantId, ...input }));
