import { MLDSA87_DESCRIPTOR, TRANSACTION_SIGNATURE_CONTEXT } from "@qc/chain";
import { findTransactionApprovals, findTransactionEvidenceRow, type TransactionRow } from "@qc/db/queries";
import { z } from "zod";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { addressSchema, transactionRecordSchema } from "../records/record-schemas";
import { toTransactionRecord } from "./transaction-record";

/** Lower-case 0x hex, as every key, hash and signature of the contract. */
const hex = (description: string) => z.string().meta({ description });

/** CONTRACT §19: everything needed to check a transaction offline, without trusting the service. */
export const transactionEvidenceSchema = z.object({
  transaction: transactionRecordSchema.meta({ description: "the record as `GET /v1/transactions/{id}` returns it: the intent" }),
  policy: transactionRecordSchema.shape.policy.meta({ description: "the policy decision that let it through" }),
  screening: transactionRecordSchema.shape.screening.meta({ description: "the screening verdict of its destination" }),
  asset: z
    .object({
      id: z.uuid(),
      symbol: z.string(),
      decimals: z.number().int(),
      contractAddress: addressSchema.nullable().meta({ description: "the ERC-20 contract; null for the native asset" }),
    })
    .nullable()
    .meta({ description: "the asset moved: its token contract is what an ERC-20 transfer's unsigned transaction calls" }),
  approvals: z
    .array(
      z.object({
        userId: z.uuid(),
        keyId: z.uuid(),
        publicKey: hex("the approval key's ML-DSA-87 public key (kept after revocation)"),
        approvalHash: hex("keccak256 of the approval lines of the transaction's intent, as signed"),
        signature: hex("ML-DSA-87, context QUANTUM-APPROVAL-v1, over approvalHash"),
      }),
    )
    .meta({ description: "every approval recorded (rejections carry no signature and are not listed); empty when none was required" }),
  signingRequest: z
    .object({
      unsignedTransaction: hex("the unsigned 0x51 transaction released for signing"),
      signingHash: hex("keccak256 of unsignedTransaction"),
      descriptor: hex("the key descriptor (0x010000: ML-DSA-87)"),
      context: z.string().meta({ description: "the ML-DSA context of the transaction signature: QUANTUM-TX-v1" }),
    })
    .nullable()
    .meta({ description: "what was released for signing; null before release" }),
  signature: hex("ML-DSA-87, context QUANTUM-TX-v1, over signingHash").nullable().meta({ description: "null before it is signed" }),
  signerKey: z
    .object({
      address: addressSchema,
      publicKey: hex("the source wallet's ML-DSA-87 public key").nullable(),
      ownershipProof: hex("ML-DSA-87, context QUANTUM-OWNERSHIP-v1, over the ownership message of this tenant and address")
        .nullable()
        .meta({ description: "null for a key proven before proofs were kept (such evidence does not verify)" }),
    })
    .meta({ description: "the key that signs for the source address, with the proof its holder gave at enrolment or registration" }),
  receipt: z
    .object({
      transactionHash: hex("keccak256 of the raw signed transaction"),
      blockNumber: z.number().int(),
      blockHash: hex("the block that includes it").nullable(),
      status: z.enum(["success", "reverted"]).meta({ description: "as the chain's receipt says: reverted for FAILED/REVERTED_ON_CHAIN" }),
      confirmations: z.number().int(),
    })
    .nullable()
    .meta({ description: "from what the service recorded when the block was seen; null until it is mined" }),
});
export type TransactionEvidence = z.output<typeof transactionEvidenceSchema>;

/** The receipt as the service recorded it (no call to the node: evidence is served when the node is down). */
function receiptOf(row: TransactionRow): TransactionEvidence["receipt"] {
  if (row.chainTxHash === null || row.blockNumber === null) return null;
  const reverted = row.status === "FAILED" && row.subStatus === "REVERTED_ON_CHAIN";
  if (!reverted && row.status !== "CONFIRMING" && row.status !== "COMPLETED") return null;
  return {
    transactionHash: row.chainTxHash,
    blockNumber: row.blockNumber,
    blockHash: row.blockHash,
    status: reverted ? "reverted" : "success",
    confirmations: row.confirmations,
  };
}

/**
 * `GET /v1/transactions/{id}/evidence` (CONTRACT §19): the transaction's intent, its policy and
 * screening decisions, every recorded approval with its key and signature, the signing request,
 * the transaction signature, the source key with its ownership proof and the receipt — all read
 * from stored rows, so `./qc signer verify-evidence` can re-check every hash and signature
 * offline (docs/evidence.md). 404 for an unknown id and for another tenant's.
 */
export async function getTransactionEvidence(
  deps: Pick<ServiceDeps, "db">,
  input: { tenantId: string; transactionId: string },
): Promise<TransactionEvidence> {
  const found = await findTransactionEvidenceRow(deps.db, input);
  if (!found) throw new AppError("NOT_FOUND", "transaction not found");
  const row = found.transaction;
  const decisions = row.approvals ? await findTransactionApprovals(deps.db, input) : [];
  return {
    transaction: toTransactionRecord(row),
    policy: row.policy,
    screening: row.screening,
    asset: found.asset,
    approvals: decisions.flatMap((d) =>
      d.decision === "APPROVED" && d.keyId && d.signature && d.publicKey
        ? [{ userId: d.userId, keyId: d.keyId, publicKey: d.publicKey, approvalHash: d.approvalHash, signature: d.signature }]
        : [],
    ),
    signingRequest:
      row.unsignedTransaction && row.signingHash
        ? {
            unsignedTransaction: row.unsignedTransaction,
            signingHash: row.signingHash,
            descriptor: MLDSA87_DESCRIPTOR,
            context: TRANSACTION_SIGNATURE_CONTEXT,
          }
        : null,
    signature: row.signature,
    signerKey: {
      address: row.sourceAddress,
      publicKey: found.wallet?.publicKey ?? null,
      ownershipProof: found.wallet?.ownershipProof ?? null,
    },
    receipt: receiptOf(row),
  };
}
