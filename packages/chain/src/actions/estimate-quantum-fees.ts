import type { Chain, Client, Transport } from "viem";
import { estimateFeesPerGas } from "viem/actions";
import { mapRpcError, type MappedRpcError } from "../errors/node";

export type EstimateQuantumFeesReturnType = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
export type EstimateQuantumFeesErrorType = MappedRpcError;

/** EIP-1559 fees for a `0x51` transaction: viem's estimate (base fee × 1.2 + suggested tip). */
export async function estimateQuantumFees(client: Client<Transport, Chain | undefined>): Promise<EstimateQuantumFeesReturnType> {
  try {
    const { maxFeePerGas, maxPriorityFeePerGas } = await estimateFeesPerGas(client, { chain: client.chain, type: "eip1559" });
    return { maxFeePerGas, maxPriorityFeePerGas };
  } catch (error) {
    throw mapRpcError(error);
  }
}
