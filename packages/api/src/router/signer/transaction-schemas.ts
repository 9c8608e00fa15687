import { MLDSA87_DESCRIPTOR, TRANSACTION_SIGNATURE_CONTEXT } from "@qc/chain";
import { transactionRecordSchema } from "@qc/core";
import { z } from "zod";
import { EXAMPLE_PENDING_TRANSACTION } from "../transactions/examples";

export { transactionIdParam } from "../transactions/schemas";

export const signingRequestSchema = z.object({
  unsignedTransaction: z.string().meta({
    description:
      "`0x51 ‖ rlp(unsigned fields)`, rebuilt from the human-readable fields of the record; rebuild it yourself and " +
      "compare before signing",
  }),
  signingHash: z.string().meta({ description: "keccak256 of `unsignedTransaction`: what the ML-DSA-87 signature covers" }),
  descriptor: z.string().meta({ description: `key descriptor: \`${MLDSA87_DESCRIPTOR}\` (ML-DSA-87)` }),
  context: z.string().meta({ description: `ML-DSA context string of the signature: \`${TRANSACTION_SIGNATURE_CONTEXT}\`` }),
});

export const signingRequestRecord = transactionRecordSchema.extend({ signingRequest: signingRequestSchema });

/** The transactions routes' example transfer, as the signer sees it once released for signing. */
export { EXAMPLE_PENDING_TRANSACTION };

export const EXAMPLE_SIGNING_REQUEST = {
  unsignedTransaction: "0x51f8…(the unsigned fields as RLP)",
  signingHash: EXAMPLE_PENDING_TRANSACTION.signingHash,
  descriptor: MLDSA87_DESCRIPTOR,
  context: TRANSACTION_SIGNATURE_CONTEXT,
} as const;

/** ML-DSA-87 signatures are 4627 bytes; the example shows their start. */
export const EXAMPLE_SIGNATURE = "0x8c1d5e2f…(4627 bytes as hex)";
