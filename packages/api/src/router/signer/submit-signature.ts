import { submitSignature, transactionRecordSchema } from "@qc/core";
import { z } from "zod";
import { text } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_PENDING_TRANSACTION, EXAMPLE_SIGNATURE, transactionIdParam } from "./transaction-schemas";

export const submitSignatureProcedure = authedProcedure
  .meta({
    scope: "signer",
    action: "transact",
    valueMoving: true,
    openapi: {
      method: "POST",
      path: "/v1/signer/transactions/{transactionId}/signature",
      tags: ["signer"],
      summary: "Submit a transaction signature",
      description:
        "The signer's approval: the ML-DSA-87 signature (context `QUANTUM-TX-v1`, hex, 4627 bytes) over the " +
        "transaction's `signingHash`, by the source wallet's key. The service verifies it against the wallet's " +
        "enrolled key over the signing hash it rebuilds from the stored fields; on success the transaction is `SIGNED` " +
        "and goes to broadcast. A signature that does not verify (another key, another transaction, another context, " +
        "malformed) is 400 `INVALID_SIGNATURE` and the transaction stays `PENDING_SIGNATURE`. From any other status, a " +
        "second submission included, 409 `INVALID_TRANSACTION_STATE`.",
      protect: true,
    },
    errors: ["NOT_FOUND", "INVALID_SIGNATURE", "INVALID_TRANSACTION_STATE"],
    example: {
      input: { transactionId: EXAMPLE_PENDING_TRANSACTION.id, signature: EXAMPLE_SIGNATURE },
      output: { ...EXAMPLE_PENDING_TRANSACTION, status: "SIGNED", signedAt: EXAMPLE_PENDING_TRANSACTION.updatedAt },
    },
  })
  .input(
    z.object({
      transactionId: transactionIdParam,
      // Checked by the service, so that a malformed signature is INVALID_SIGNATURE (audited), not a validation error.
      signature: text().max(10_000).meta({ description: "ML-DSA-87 signature, hex (4627 bytes), optional 0x" }),
    }),
  )
  .output(transactionRecordSchema)
  .mutation(({ ctx, input }) =>
    submitSignature(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      transactionId: input.transactionId,
      signature: input.signature,
      actor: ctx.actor,
    }),
  );
