import { listTransactions, transactionStatusSchema } from "@qc/core";
import { TRANSACTION_TYPES } from "@qc/domain";
import { z } from "zod";
import { EXAMPLE_LAST_PAGE } from "../../openapi-examples";
import { pageInfo, pageQuery, text } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_DEPOSIT, EXAMPLE_PENDING_TRANSACTION } from "./examples";
import { transactionRecord } from "./schemas";

/** A bound of the creation window: RFC 3339 with an offset (`Z` or `+02:00`). */
const instant = z.iso.datetime({ offset: true });

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
        "one batch (`batchId`), and created in a window of time (`createdFrom` inclusive, `createdTo` exclusive, RFC 3339; " +
        "`createdFrom` after `createdTo` is 400 `VALIDATION_FAILED`). " +
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
    pageQuery
      .extend({
        status: transactionStatusSchema.optional(),
        type: z.enum(TRANSACTION_TYPES).optional(),
        sourceWalletId: z.uuid().optional(),
        walletId: z.uuid().optional().meta({ description: "the wallet on either side: the source, or a deposit's destination" }),
        externalId: text().min(1).max(255).optional(),
        batchId: z.uuid().optional().meta({ description: "the transfers of one batch (`POST /v1/transactions/batch`)" }),
        createdFrom: instant
          .optional()
          .meta({ description: "created at or after this instant (RFC 3339)", example: "2026-11-01T00:00:00.000Z" }),
        createdTo: instant.optional().meta({ description: "created before this instant (RFC 3339)", example: "2026-12-01T00:00:00.000Z" }),
      })
      .refine((input) => !input.createdFrom || !input.createdTo || Date.parse(input.createdFrom) <= Date.parse(input.createdTo), {
        message: "must not be after createdTo",
        path: ["createdFrom"],
      }),
  )
  .output(z.object({ transactions: z.array(transactionRecord), page: pageInfo }))
  .query(({ ctx, input: { createdFrom, createdTo, ...input } }) =>
    listTransactions(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      ...input,
      createdFrom: createdFrom === undefined ? undefined : new Date(createdFrom),
      createdTo: createdTo === undefined ? undefined : new Date(createdTo),
    }),
  );
