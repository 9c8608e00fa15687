import { getTransactionEvidence, transactionEvidenceSchema } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_APPROVAL_DECISION, EXAMPLE_APPROVAL_KEY, EXAMPLE_APPROVAL_REQUEST, EXAMPLE_SIGNATURE } from "../approvals/examples";
import { EXAMPLE_SIGNING_REQUEST } from "../signer/transaction-schemas";
import { EXAMPLE_BROADCASTING_TRANSACTION } from "./examples";
import { transactionIdParam } from "./schemas";

const EXAMPLE_COMPLETED = {
  ...EXAMPLE_BROADCASTING_TRANSACTION,
  status: "COMPLETED",
  stuck: false,
  blockNumber: 1284,
  confirmations: 2,
  completedAt: EXAMPLE_BROADCASTING_TRANSACTION.broadcastAt,
} as const;

export const getTransactionEvidenceProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/transactions/{transactionId}/evidence",
      tags: ["transactions"],
      summary: "A transaction's evidence, verifiable offline",
      description:
        "The intent, the policy and screening decisions, every approval with its key and signature, the signing request, " +
        "the transaction signature, the source key with its ownership proof and the receipt as recorded (no call to the " +
        "node). `signer verify-evidence <file>` re-checks every hash and signature offline (docs/evidence.md). Another " +
        "tenant's transaction is 404.",
      protect: true,
    },
    errors: ["NOT_FOUND"],
    example: {
      input: { transactionId: EXAMPLE_COMPLETED.id },
      output: {
        transaction: EXAMPLE_COMPLETED,
        policy: EXAMPLE_COMPLETED.policy,
        screening: EXAMPLE_COMPLETED.screening,
        asset: { id: EXAMPLE_COMPLETED.assetId, symbol: "Q", decimals: 18, contractAddress: null },
        approvals: [
          {
            userId: EXAMPLE_APPROVAL_DECISION.userId,
            keyId: EXAMPLE_APPROVAL_DECISION.keyId,
            publicKey: EXAMPLE_APPROVAL_KEY.publicKey,
            approvalHash: EXAMPLE_APPROVAL_REQUEST.approvalHash,
            signature: EXAMPLE_SIGNATURE,
          },
        ],
        signingRequest: EXAMPLE_SIGNING_REQUEST,
        signature: EXAMPLE_SIGNATURE,
        signerKey: { address: EXAMPLE_COMPLETED.sourceAddress, publicKey: "0x4e7a90…", ownershipProof: "0x1b93d7…" },
        receipt: {
          transactionHash: EXAMPLE_COMPLETED.chainTxHash,
          blockNumber: EXAMPLE_COMPLETED.blockNumber,
          blockHash: "0x9e2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f6a1d3c5e7f9b2d4f6a8c",
          status: "success",
          confirmations: EXAMPLE_COMPLETED.confirmations,
        },
      },
    },
  })
  .input(z.object({ transactionId: transactionIdParam }))
  .output(transactionEvidenceSchema)
  .query(({ ctx, input }) => getTransactionEvidence(ctx.deps, { tenantId: ctx.auth.tenantId, transactionId: input.transactionId }));
