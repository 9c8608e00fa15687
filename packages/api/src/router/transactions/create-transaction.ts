import { createTransfer } from "@qc/core";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_CREATE_TRANSFER, EXAMPLE_TRANSACTION } from "./examples";
import { createTransferInput, transactionRecord } from "./schemas";

export const createTransactionProcedure = authedProcedure
  .meta({
    scope: "write",
    action: "transact",
    valueMoving: true,
    successStatus: 201,
    idempotencyKey: "required",
    openapi: {
      method: "POST",
      path: "/v1/transactions",
      tags: ["transactions"],
      summary: "Create a transfer",
      description:
        "Accepts a transfer in `SUBMITTED`; policy, AML screening, daily quotas and the balance (amount plus the " +
        "maximum fee) are then checked in the background, and a cleared transfer is released for signing " +
        "(`PENDING_SIGNATURE`, or `QUEUED` behind an earlier transfer of the same source). Requires " +
        "`X-Idempotency-Key` (or `Idempotency-Key`). The source must be an ACTIVE, non-watch-only wallet of the tenant " +
        "placed on `networkCode`; the asset an asset of that network.",
      protect: true,
    },
    errors: [
      "NOT_FOUND",
      "DUPLICATE_EXTERNAL_ID",
      "WALLET_ARCHIVED",
      "NETWORK_MISMATCH",
      "UNKNOWN_ASSET",
      "WATCH_ONLY_SOURCE",
      "INVALID_ADDRESS",
    ],
    example: { input: EXAMPLE_CREATE_TRANSFER, output: EXAMPLE_TRANSACTION },
  })
  .input(createTransferInput)
  .output(transactionRecord)
  .mutation(({ ctx, input }) => createTransfer(ctx.deps, { tenantId: ctx.auth.tenantId, ...input, actor: ctx.actor }));
