import { amountSchema, speedUpTransaction } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_BROADCASTING_TRANSACTION, EXAMPLE_REPLACEMENT } from "./examples";
import { transactionIdParam, transactionRecord } from "./schemas";

const feeCap = (what: string) =>
  amountSchema.optional().meta({
    description: `${what} floor in Qwei per gas, a decimal string; the service may set it higher (12.5 % over the nonce's live transactions, the chain's current need)`,
    example: "60000000000",
  });

export const speedUpTransactionProcedure = authedProcedure
  .meta({
    scope: "write",
    action: "transact",
    valueMoving: true,
    successStatus: 201,
    idempotencyKey: "optional",
    openapi: {
      method: "POST",
      path: "/v1/transactions/{transactionId}/speed-up",
      tags: ["transactions"],
      summary: "Speed up a sent transaction",
      description:
        "From `BROADCASTING` only: creates a new record `type: REPLACEMENT` (`replacesTransactionId` = this transaction) at the same " +
        "nonce with the same transfer (or deployment) and higher fee caps, released for your signer to sign (`PENDING_SIGNATURE`) " +
        "and then broadcast like any transaction. Each cap is the highest of what you ask, 12.5 % above the highest cap among the " +
        "nonce's transactions not yet mined, and what the chain's latest base fee needs. Whichever of the nonce's transactions is " +
        "mined completes; the others end `FAILED` / `REPLACED` with `replacedByTransactionId`. Another status is 409 " +
        "`INVALID_TRANSACTION_STATE` (`details.status`), and so is a nonce already mined (`details.minedTransactionId`); a cap " +
        "asked above the service's `MAX_FEE_PER_GAS_CAP` is 400 `VALIDATION_FAILED`, caps the rule needs above it 409 `CONFLICT`.",
      protect: true,
    },
    errors: ["NOT_FOUND", "INVALID_TRANSACTION_STATE", "CONFLICT"],
    example: {
      input: { transactionId: EXAMPLE_BROADCASTING_TRANSACTION.id, maxFeePerGas: "60000000000" },
      output: EXAMPLE_REPLACEMENT,
    },
  })
  .input(
    z.object({
      transactionId: transactionIdParam,
      maxFeePerGas: feeCap("the fee cap (maxFeePerGas)"),
      maxPriorityFeePerGas: feeCap("the tip (maxPriorityFeePerGas)"),
    }),
  )
  .output(transactionRecord)
  .mutation(({ ctx, input }) =>
    speedUpTransaction(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      transactionId: input.transactionId,
      maxFeePerGas: input.maxFeePerGas,
      maxPriorityFeePerGas: input.maxPriorityFeePerGas,
      actor: ctx.actor,
    }),
  );
