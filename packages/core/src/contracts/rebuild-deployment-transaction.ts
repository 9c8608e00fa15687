import type { QuantumTransactionSerializable } from "@qc/chain";
import type { TransactionRow } from "@qc/db/queries";
import { AppError } from "../errors";
import { deploymentData } from "./deployment-data";

/** A released CONTRACT_DEPLOY row: its fee fields are set. */
export type ReleasedDeploymentRow = TransactionRow & {
  nonce: number;
  gasLimit: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
};

/**
 * The unsigned contract creation of a CONTRACT_DEPLOY row, rebuilt from its template id, its
 * stored constructor arguments and the pinned catalog (deploymentData): `to` null, value 0,
 * `data` = the template's creation bytecode followed by the re-validated, re-encoded arguments.
 * The stored `data` is never used, only compared, so bytes changed in the database stop the
 * transaction here; the callers fail it closed (FAILED/SIGNATURE_MISMATCH).
 */
export function rebuildDeploymentTransaction(row: ReleasedDeploymentRow): QuantumTransactionSerializable {
  if (row.destinationAddress !== null || row.assetId !== null || row.amount !== "0") {
    throw new AppError("INTERNAL", "a CONTRACT_DEPLOY moves no asset and has no destination");
  }
  return {
    chainId: row.chainId,
    nonce: row.nonce,
    maxFeePerGas: BigInt(row.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(row.maxPriorityFeePerGas),
    gas: BigInt(row.gasLimit),
    to: null,
    value: 0n,
    data: deploymentData(row),
    accessList: [],
  };
}
