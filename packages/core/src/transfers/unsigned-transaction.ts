import { buildQuantumTransfer, serializeQuantumTransaction, signingHash, type QuantumTransactionSerializable } from "@qc/chain";
import type { TransactionRow } from "@qc/db/queries";
import { isSelfSendType, type AssetKind } from "@qc/domain";
import { rebuildDeploymentTransaction } from "../contracts/rebuild-deployment-transaction";
import { AppError } from "../errors";

/** What the rebuild needs of the transfer's asset: a token's contract, or nothing for the native asset. */
export interface TransferAsset {
  kind: AssetKind;
  contractAddress: string | null;
}

export interface RebuiltTransaction {
  unsigned: QuantumTransactionSerializable;
  /** `0x51 ‖ rlp(unsigned fields)`: the signing request's `unsignedTransaction`. */
  unsignedTransaction: `0x51${string}`;
  signingHash: `0x${string}`;
}

/**
 * The unsigned `0x51` transaction of a transfer, rebuilt from the stored human-readable intent
 * (network, nonce, fee caps, gas, destination, amount, asset), never from stored bytes: what the
 * signer shows, what the service verifies at submission and again before broadcast (spec
 * Rule 2). A row without its released fields (nonce, fees) cannot be rebuilt.
 *
 * CONTRACT §17's own records: a NONCE_FILL or CANCELLATION is zero value from the source to itself
 * (no asset, no data); a REPLACEMENT is rebuilt as what it replaces — a deployment when it carries
 * a template, otherwise a transfer of its destination, asset and amount.
 */
export function rebuildUnsignedTransaction(row: TransactionRow, asset: TransferAsset | null): RebuiltTransaction {
  if (row.nonce === null || row.gasLimit === null || row.maxFeePerGas === null || row.maxPriorityFeePerGas === null) {
    throw new AppError("INVALID_TRANSACTION_STATE", "the transaction has not been released for signing", {
      details: { status: row.status },
    });
  }
  if (row.type === "CONTRACT_DEPLOY" || (row.type === "REPLACEMENT" && row.templateId !== null)) {
    // A deployment's intent is its catalog template and constructor arguments (no asset, no destination).
    const unsigned = rebuildDeploymentTransaction({
      ...row,
      nonce: row.nonce,
      gasLimit: row.gasLimit,
      maxFeePerGas: row.maxFeePerGas,
      maxPriorityFeePerGas: row.maxPriorityFeePerGas,
    });
    return rebuilt(unsigned);
  }
  // A NONCE_FILL or CANCELLATION: zero value to the source itself, whatever else the row says.
  const selfSend = isSelfSendType(row.type);
  if (!selfSend && ((row.type !== "TRANSFER" && row.type !== "REPLACEMENT") || row.destinationAddress === null)) {
    throw new AppError("INVALID_TRANSACTION_STATE", `a ${row.type} transaction is not rebuilt as a transfer`);
  }
  if (!selfSend && !asset) throw new AppError("INTERNAL", "transfer without a visible asset");
  if (asset?.kind === "TOKEN" && !asset.contractAddress) throw new AppError("INTERNAL", "token asset without a contract address");
  return rebuilt(
    buildQuantumTransfer({
      chainId: row.chainId,
      nonce: row.nonce,
      maxFeePerGas: BigInt(row.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(row.maxPriorityFeePerGas),
      gas: BigInt(row.gasLimit),
      to: selfSend ? row.sourceAddress : row.destinationAddress!,
      amount: selfSend ? 0n : BigInt(row.amount),
      token: !selfSend && asset?.kind === "TOKEN" ? asset.contractAddress : null,
    }),
  );
}

/** An unsigned transaction with its `0x51` serialization and signing hash. */
function rebuilt(unsigned: QuantumTransactionSerializable): RebuiltTransaction {
  return {
    unsigned,
    unsignedTransaction: serializeQuantumTransaction(unsigned) as `0x51${string}`,
    signingHash: signingHash(unsigned) as `0x${string}`,
  };
}
