import { buildQuantumTransfer, serializeQuantumTransaction, signingHash, type QuantumTransactionSerializable } from "@qc/chain";
import type { TransactionRow } from "@qc/db/queries";
import type { AssetKind } from "@qc/domain";
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
 */
export function rebuildUnsignedTransaction(row: TransactionRow, asset: TransferAsset | null): RebuiltTransaction {
  if (row.nonce === null || row.gasLimit === null || row.maxFeePerGas === null || row.maxPriorityFeePerGas === null) {
    throw new AppError("INVALID_TRANSACTION_STATE", "the transaction has not been released for signing", {
      details: { status: row.status },
    });
  }
  if (row.type === "CONTRACT_DEPLOY") {
    // A deployment's intent is its catalog template and constructor arguments (no asset, no destination).
    const unsigned = rebuildDeploymentTransaction({
      ...row,
      nonce: row.nonce,
      gasLimit: row.gasLimit,
      maxFeePerGas: row.maxFeePerGas,
      maxPriorityFeePerGas: row.maxPriorityFeePerGas,
    });
    return {
      unsigned,
      unsignedTransaction: serializeQuantumTransaction(unsigned) as `0x51${string}`,
      signingHash: signingHash(unsigned) as `0x${string}`,
    };
  }
  if (row.type !== "TRANSFER" || row.destinationAddress === null) {
    throw new AppError("INVALID_TRANSACTION_STATE", `a ${row.type} transaction is not rebuilt as a transfer`);
  }
  if (!asset) throw new AppError("INTERNAL", "transfer without a visible asset");
  if (asset.kind === "TOKEN" && !asset.contractAddress) throw new AppError("INTERNAL", "token asset without a contract address");
  const unsigned = buildQuantumTransfer({
    chainId: row.chainId,
    nonce: row.nonce,
    maxFeePerGas: BigInt(row.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(row.maxPriorityFeePerGas),
    gas: BigInt(row.gasLimit),
    to: row.destinationAddress,
    amount: BigInt(row.amount),
    token: asset.kind === "TOKEN" ? asset.contractAddress : null,
  });
  return {
    unsigned,
    unsignedTransaction: serializeQuantumTransaction(unsigned) as `0x51${string}`,
    signingHash: signingHash(unsigned) as `0x${string}`,
  };
}
