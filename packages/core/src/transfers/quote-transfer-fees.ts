import { buildQuantumTransfer, CallRevertedError, estimateQuantumFees, InsufficientFundsError, mapRpcError, type NetworkCode } from "@qc/chain";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { chainUnavailable } from "../balances/chain-errors";

export interface TransferFeeQuote {
  gasLimit: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export interface QuotedTransfer {
  networkCode: NetworkCode;
  chainId: number;
  sourceAddress: string;
  destinationAddress: string;
  amount: bigint;
  /** The ERC-20 contract; null for the native asset. */
  token: string | null;
}

/** The node says the source cannot pay the transfer (value above its balance). */
export class TransferUnaffordableError extends Error {
  override readonly name = "TransferUnaffordableError";
}

/** The node says the transfer would revert (an ERC-20 refusing it). */
export class TransferWouldRevertError extends Error {
  override readonly name = "TransferWouldRevertError";
}

/**
 * Fees and gas for a transfer, from the chain (docs/decisions/transfers.md): EIP-1559 caps from
 * the node's fee history (estimateQuantumFees), refused above `maxFeePerGasCap` (503: the
 * release waits and retries); gas from eth_estimateGas × `gasMarginPercent`. An RPC that cannot
 * be reached is 503 UNAVAILABLE naming the network.
 */
export async function quoteTransferFees(deps: Pick<ServiceDeps, "chain" | "config">, transfer: QuotedTransfer): Promise<TransferFeeQuote> {
  const { maxFeePerGasCap, gasMarginPercent } = deps.config.transfers;
  const client = deps.chain.client(transfer.networkCode);
  // Only to, value and data matter to the estimate; nonce and fees are placeholders.
  const call = buildQuantumTransfer({
    chainId: transfer.chainId,
    nonce: 0,
    maxFeePerGas: 0n,
    maxPriorityFeePerGas: 0n,
    gas: 0n,
    to: transfer.destinationAddress,
    amount: transfer.amount,
    token: transfer.token,
  });
  try {
    const [fees, estimate] = await Promise.all([
      estimateQuantumFees(client),
      client
        .estimateGas({ account: transfer.sourceAddress as `0x${string}`, to: call.to!, value: call.value ?? 0n, data: call.data ?? "0x" })
        .catch((error: unknown) => {
          throw mapRpcError(error);
        }),
    ]);
    if (fees.maxFeePerGas > maxFeePerGasCap) {
      throw new AppError("UNAVAILABLE", `${transfer.networkCode} fees (maxFeePerGas ${fees.maxFeePerGas}) are above the configured cap of ${maxFeePerGasCap}; the release waits`, {
        details: { networkCode: transfer.networkCode },
        retryAfter: 30,
      });
    }
    return {
      gasLimit: (estimate * BigInt(gasMarginPercent) + 99n) / 100n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    };
  } catch (error) {
    if (error instanceof InsufficientFundsError) throw new TransferUnaffordableError(error.shortMessage, { cause: error });
    if (error instanceof CallRevertedError) throw new TransferWouldRevertError(error.shortMessage, { cause: error });
    throw chainUnavailable(transfer.networkCode, error);
  }
}
