import {
  buildQuantumTransfer,
  CallRevertedError,
  estimateQuantumFees,
  InsufficientFundsError,
  mapRpcError,
  type NetworkCode,
} from "@qc/chain";
import type { ChainClients, ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { chainUnavailable } from "../balances/chain-errors";

export interface TransferFeeQuote {
  gasLimit: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** What the gas estimate is asked about: a call (`to` set) or a contract creation (`to` absent). */
export interface FeeCall {
  to?: `0x${string}`;
  value: bigint;
  data: `0x${string}`;
}

/** The node says the source cannot pay the transaction (value or fees above its balance). */
export class TransferUnaffordableError extends Error {
  override readonly name = "TransferUnaffordableError";
}

/** The node says the transaction would revert (an ERC-20 refusing it, a constructor reverting). */
export class TransferWouldRevertError extends Error {
  override readonly name = "TransferWouldRevertError";
}

/** The call a transfer makes (native: to the destination with the value; ERC-20: `transfer` on the token). */
export function transferCall(transfer: { chainId: number; destinationAddress: string; amount: bigint; token: string | null }): FeeCall {
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
  return { to: call.to!, value: call.value ?? 0n, data: call.data ?? "0x" };
}

/**
 * Fees and gas for a transfer or a contract creation, from the chain (docs/decisions/transfers.md):
 * EIP-1559 caps from the node's fee history (estimateQuantumFees; shared by the process's quotes of
 * a network for up to a second, `feeRoundOf`), refused above `maxFeePerGasCap`
 * (503: the release waits and retries); gas from eth_estimateGas of `call` × `gasMarginPercent`,
 * rounded up. The node's refusals become TransferUnaffordableError (the source cannot pay) and
 * TransferWouldRevertError (for a creation: the constructor reverts), so the checks and the release
 * handle both the same way for every kind. An RPC that cannot be reached is 503 UNAVAILABLE naming
 * the network.
 */
export async function quoteFees(
  deps: Pick<ServiceDeps, "chain" | "config">,
  input: { networkCode: NetworkCode; from: string; call: FeeCall },
): Promise<TransferFeeQuote> {
  const { maxFeePerGasCap, gasMarginPercent } = deps.config.transfers;
  const { networkCode, from, call } = input;
  // Its reads, and those its caller starts beside it (the balance, the pending nonce), in one JSON-RPC batch.
  const client = deps.chain.batchClient(networkCode);
  try {
    const [fees, estimate] = await Promise.all([
      feeRoundOf(deps.chain).fees(networkCode, () => estimateQuantumFees(client)),
      client.estimateGas({ account: from as `0x${string}`, to: call.to, value: call.value, data: call.data }).catch((error: unknown) => {
        throw mapRpcError(error);
      }),
    ]);
    if (fees.maxFeePerGas > maxFeePerGasCap) {
      throw new AppError(
        "UNAVAILABLE",
        `${networkCode} fees (maxFeePerGas ${fees.maxFeePerGas}) are above the configured cap of ${maxFeePerGasCap}; the release waits`,
        {
          details: { networkCode },
          retryAfter: 30,
        },
      );
    }
    return {
      gasLimit: (estimate * BigInt(gasMarginPercent) + 99n) / 100n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    };
  } catch (error) {
    if (error instanceof InsufficientFundsError) throw new TransferUnaffordableError(error.shortMessage, { cause: error });
    if (error instanceof CallRevertedError)
      throw new TransferWouldRevertError(`${call.to ? "" : "the constructor reverts: "}${error.shortMessage}`, { cause: error });
    throw chainUnavailable(networkCode, error);
  }
}

/** What one fee quote of a network holds (estimateQuantumFees). */
type NetworkFees = Awaited<ReturnType<typeof estimateQuantumFees>>;

/**
 * Fee caps quoted once per network and shared for `maxAgeMs` (default 1 s, about a block: the caps
 * carry the node's margin over the base fee, more than one block can move it), instead of asking
 * the node for a block and a priority fee for every transfer. Gas stays estimated per transfer (it
 * is also how the node says the source can no longer pay).
 */
export interface FeeRound {
  fees(networkCode: NetworkCode, quote: () => Promise<NetworkFees>): Promise<NetworkFees>;
}

export function createFeeRound(maxAgeMs = 1000): FeeRound {
  const quotes = new Map<NetworkCode, { at: number; fees: Promise<NetworkFees> }>();
  return {
    fees(networkCode, quote) {
      const held = quotes.get(networkCode);
      if (held && performance.now() - held.at < maxAgeMs) return held.fees;
      const fees = quote();
      quotes.set(networkCode, { at: performance.now(), fees });
      // A failed quote is not shared: the next transfer asks again.
      fees.catch(() => quotes.get(networkCode)?.fees === fees && quotes.delete(networkCode));
      return fees;
    },
  };
}

const rounds = new WeakMap<ChainClients, FeeRound>();

/**
 * The fee caps every quote made through these chain clients shares (`quoteFees`: the checks, the
 * releases, the nonce fills of one process): under load a network's caps are asked for about once
 * a second, not twice a transfer (a block, then a priority fee after it). A replacement's caps are
 * not quoted here: a speed-up or a cancel asks the node itself (`replaceAtNonce`).
 */
export function feeRoundOf(chain: ChainClients): FeeRound {
  let round = rounds.get(chain);
  if (!round) rounds.set(chain, (round = createFeeRound()));
  return round;
}
