import { CallRevertedError, estimateQuantumFees, InsufficientFundsError, mapRpcError, type NetworkCode } from "@qc/chain";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { chainUnavailable } from "../balances/chain-errors";
import { TransferUnaffordableError, TransferWouldRevertError, type TransferFeeQuote } from "../transfers/quote-transfer-fees";

export interface QuotedDeployment {
  networkCode: NetworkCode;
  sourceAddress: string;
  /** The creation data: template bytecode ‖ encoded constructor arguments. */
  data: `0x${string}`;
}

/**
 * Fees and gas for a contract creation, by the same rules as a transfer's (quoteTransferFees):
 * EIP-1559 caps from the node, refused above `maxFeePerGasCap` (503, the release waits), gas
 * from eth_estimateGas of the creation × `gasMarginPercent`. A constructor that reverts is
 * TransferWouldRevertError, a source that cannot pay TransferUnaffordableError, as for transfers,
 * so the release handles both the same way.
 */
export async function quoteDeploymentFees(deps: Pick<ServiceDeps, "chain" | "config">, deployment: QuotedDeployment): Promise<TransferFeeQuote> {
  const { maxFeePerGasCap, gasMarginPercent } = deps.config.transfers;
  const client = deps.chain.client(deployment.networkCode);
  try {
    const [fees, estimate] = await Promise.all([
      estimateQuantumFees(client),
      client.estimateGas({ account: deployment.sourceAddress as `0x${string}`, data: deployment.data, value: 0n }).catch((error: unknown) => {
        throw mapRpcError(error);
      }),
    ]);
    if (fees.maxFeePerGas > maxFeePerGasCap) {
      throw new AppError("UNAVAILABLE", `${deployment.networkCode} fees (maxFeePerGas ${fees.maxFeePerGas}) are above the configured cap of ${maxFeePerGasCap}; the release waits`, {
        details: { networkCode: deployment.networkCode },
        retryAfter: 30,
      });
    }
    return {
      gasLimit: (estimate * BigInt(gasMarginPercent) + 99n) / 100n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof InsufficientFundsError) throw new TransferUnaffordableError(error.shortMessage, { cause: error });
    if (error instanceof CallRevertedError) throw new TransferWouldRevertError(`the constructor reverts: ${error.shortMessage}`, { cause: error });
    throw chainUnavailable(deployment.networkCode, error);
  }
}
