import { cancelTransactionOrOnChain } from "@qc/core";
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
    otherSuccess: {
      201:
        "The transaction was `BROADCASTING`: a new record `type: CANCELLATION` (zero value from the source to itself at the " +
        "same nonce, higher fee caps, `replacesTransactionId` = this transaction), released for your signer to sign.",
    },
    openapi: {
      method: "POST",
      path: "/v1/transactions/{transactionId}/cancel",
      tags: ["transactions"],
      summary: "Cancel a transaction",
      description:
        "`SUBMITTED`, `AWAITING_APPROVAL`, `QUEUED` or `PENDING_SIGNATURE` → `CANCELLED` (`CANCELLED_BY_USER`); the source's next queued " +
        "transfer is then released for signing. `BROADCASTING` (sent, not yet mined) → cancelled on chain: 201 with a new record " +
        "`type: CANCELLATION` at the same nonce, its fee caps 12.5 % above the nonce's transactions and at least what the chain " +
        "needs now, for your signer to sign; if it is mined, this transaction ends `CANCELLED` (`CANCELLED_ON_CHAIN`) and only the " +
        "fee is spent; if this one is mined first, it completes and the cancellation ends `FAILED` (`REPLACED`). Any other status " +
        "is 409 `INVALID_TRANSACTION_STATE` (`details.status`), and so is a nonce already mined; fee caps the rule needs above the " +
        "service's `MAX_FEE_PER_GAS_CAP` are 409 `CONFLICT`.",
      protect: true,
    },
    errors: ["NOT_FOUND", "INVALID_TRANSACTION_STATE", "CONFLICT"],
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
  .mutation(async ({ ctx, input }) => {
    const { transaction, onChain } = await cancelTransactionOrOnChain(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      transactionId: input.transactionId,
      reason: input.reason,
      actor: ctx.actor,
    });
    if (onChain) ctx.response.status = 201;
    return transaction;
  });
