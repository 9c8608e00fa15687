import {
  estimateQuantumFees,
  simulateCalls,
  SimulationRejectedError,
  SimulationUnsupportedError,
  type NetworkCode,
  type SimulatedCall,
} from "@qc/chain";
import { CONTRACT_TEMPLATES } from "@qc/chain/contracts";
import { findVisibleAssetRow, type TransactionRow } from "@qc/db/queries";
import { decodeErrorResult, isAddress, type Abi } from "viem";
import { nativeAssetId } from "../assets/native-assets";
import { chainUnavailable } from "../balances/chain-errors";
import { deploymentData } from "../contracts/deployment-data";
import type { ServiceDeps } from "../deps/service-deps";
import type { TransactionSimulation } from "../records/record-schemas";
import { transferCall, type FeeCall, type TransferFeeQuote } from "./quote-transfer-fees";
import { resolveTransferIntent, type TransferIntentInput } from "./resolve-transfer-intent";
import type { TransferAsset } from "./unsigned-transaction";

type SimulateDeps = Pick<ServiceDeps, "chain" | "now">;

/** What one simulation is asked: the sender, its call, the fee caps it pays at, and the assets its changes are named by. */
export interface SimulationSubject {
  networkCode: NetworkCode;
  from: string;
  call: FeeCall;
  /** Fee caps and gas limit as the transaction will carry them; `gasLimit` absent: the node's default (the block's gas left). */
  fees: Pick<TransferFeeQuote, "maxFeePerGas" | "maxPriorityFeePerGas"> & { gasLimit?: bigint | undefined };
  /** The transfer's token (its contract, lower-case, and asset id); null for a native transfer or a deployment. */
  token: { contractAddress: string; assetId: string } | null;
}

/** How long the pipeline waits for the node's simulation before recording it UNSUPPORTED (it never holds up a transfer). */
export const PIPELINE_SIMULATION_TIMEOUT_MS = 5_000;

/**
 * `POST /v1/transactions/simulate` (CONTRACT §20): what the transfer a create body describes would
 * do if sent now. The body is validated and resolved as on create (`resolveTransferIntent`: the
 * same body fails the same way); nothing is written and no idempotency key is needed. The call is
 * the one the release would send (native value, or ERC-20 `transfer` on the token), at the fee caps
 * the chain quotes now with the gas it estimates (none when the estimate itself reverts: the node
 * then runs it with the block's gas). A node without `eth_simulateV1` answers UNSUPPORTED; one that
 * cannot be reached is 503 UNAVAILABLE.
 */
export async function simulateTransfer(
  deps: SimulateDeps & Pick<ServiceDeps, "db">,
  input: TransferIntentInput & { tenantId: string },
): Promise<TransactionSimulation> {
  const intent = await resolveTransferIntent(deps.db, input.tenantId, input);
  const token = intent.asset.kind === "TOKEN" ? intent.asset.contractAddress : null;
  const call = transferCall({ chainId: intent.chainId, destinationAddress: intent.destinationAddress, amount: intent.amount, token });
  const subject = { networkCode: intent.networkCode, from: intent.wallet.address, call };
  const fees = await quoteSimulationFees(deps, subject);
  return simulateCall(deps, {
    ...subject,
    fees,
    token: token ? { contractAddress: token.toLowerCase(), assetId: intent.asset.id } : null,
  });
}

/**
 * The simulation a transaction carries into PENDING_SIGNATURE or AWAITING_APPROVAL (CONTRACT §20):
 * its call rebuilt from the stored intent (a transfer, or a deployment's creation data), at `fees`
 * (the release's quote) or, when not given, at the fee caps and gas the chain quotes now. One
 * `eth_simulateV1` per entry, asked outside any database transaction by the caller. It never fails
 * and never waits longer than PIPELINE_SIMULATION_TIMEOUT_MS: a node without the method, or one that
 * errs or times out, gives UNSUPPORTED with the reason (logged), and the transfer goes on.
 */
export async function simulateTransactionRow(
  deps: SimulateDeps & Pick<ServiceDeps, "db" | "log">,
  row: TransactionRow,
  options: { asset?: TransferAsset | null | undefined; fees?: TransferFeeQuote | undefined } = {},
): Promise<TransactionSimulation> {
  const networkCode = row.networkCode as NetworkCode;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${PIPELINE_SIMULATION_TIMEOUT_MS} ms`)), PIPELINE_SIMULATION_TIMEOUT_MS);
  });
  const simulate = async (): Promise<TransactionSimulation> => {
    const asset =
      options.asset !== undefined
        ? options.asset
        : row.assetId
          ? ((await findVisibleAssetRow(deps.db, { tenantId: row.tenantId, assetId: row.assetId })) ?? null)
          : null;
    const call = transactionCall(row, asset);
    const subject = { networkCode, from: row.sourceAddress, call };
    const fees = options.fees ?? (await quoteSimulationFees(deps, subject));
    const token = asset?.kind === "TOKEN" && asset.contractAddress && row.assetId ? asset.contractAddress.toLowerCase() : null;
    return simulateCall(deps, { ...subject, fees, token: token ? { contractAddress: token, assetId: row.assetId! } : null });
  };
  try {
    return await Promise.race([simulate(), timeout]);
  } catch (error) {
    const message = error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error);
    deps.log.warn({ tenantId: row.tenantId, transactionId: row.id, err: error }, "pre-sign simulation unavailable: recorded UNSUPPORTED");
    return unsupported(deps, `the node could not simulate the transaction: ${message}`);
  } finally {
    clearTimeout(timer);
  }
}

/** The call a stored transaction makes: a transfer's (native value or ERC-20 `transfer`), or a deployment's creation. */
export function transactionCall(row: TransactionRow, asset: TransferAsset | null): FeeCall {
  if (row.type === "CONTRACT_DEPLOY") return { value: 0n, data: deploymentData(row) };
  return transferCall({
    chainId: row.chainId,
    destinationAddress: row.destinationAddress!,
    amount: BigInt(row.amount),
    token: asset?.kind === "TOKEN" ? asset.contractAddress : null,
  });
}

/**
 * Runs `subject` through `eth_simulateV1` (`traceTransfers`, `validation`) and reads its balance
 * changes: the native value moved (the node's `0xeeee…` logs) and the token's `Transfer` logs, the
 * fee (gasUsed × min(maxFeePerGas, baseFee + maxPriorityFeePerGas)) taken from the source's native
 * change. A node's refusal of the whole request (`-380xx`, e.g. the source cannot pay) is a REVERT
 * naming it; a node without the method is UNSUPPORTED; anything else is 503 UNAVAILABLE.
 */
export async function simulateCall(deps: SimulateDeps, subject: SimulationSubject): Promise<TransactionSimulation> {
  const { networkCode, call, fees } = subject;
  const from = subject.from.toLowerCase() as `0x${string}`;
  let result;
  try {
    result = await simulateCalls(deps.chain.client(networkCode), {
      calls: [
        {
          from,
          to: call.to ?? null,
          value: call.value,
          data: call.data,
          gas: fees.gasLimit,
          maxFeePerGas: fees.maxFeePerGas,
          maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        },
      ],
      traceTransfers: true,
      validation: true,
    });
  } catch (error) {
    if (error instanceof SimulationUnsupportedError) return unsupported(deps, "the node does not support eth_simulateV1");
    if (error instanceof SimulationRejectedError) {
      return { ...empty(deps), status: "REVERT", revertReason: error.shortMessage };
    }
    throw chainUnavailable(networkCode, error);
  }
  const simulated = result.calls[0]!;
  const tip = result.baseFeePerGas + fees.maxPriorityFeePerGas;
  const price = fees.maxFeePerGas < tip ? fees.maxFeePerGas : tip;
  return {
    status: simulated.status === "success" ? "SUCCESS" : "REVERT",
    revertReason: simulated.status === "success" ? null : revertReasonOf(simulated),
    gasUsed: simulated.gasUsed.toString(),
    balanceChanges: balanceChanges({ networkCode, from, fee: simulated.gasUsed * price, call: simulated, token: subject.token }),
    blockNumber: result.blockNumber.toString(),
    simulatedAt: deps.now().toISOString(),
    reason: null,
  };
}

/** The fee caps the chain quotes now, and the gas it estimates (undefined when the estimate fails: a reverting call). */
async function quoteSimulationFees(
  deps: Pick<ServiceDeps, "chain">,
  subject: { networkCode: NetworkCode; from: string; call: FeeCall },
): Promise<SimulationSubject["fees"]> {
  const client = deps.chain.client(subject.networkCode);
  const { call } = subject;
  const [fees, gasLimit] = await Promise.all([
    estimateQuantumFees(client).catch((error: unknown) => {
      throw chainUnavailable(subject.networkCode, error);
    }),
    client.estimateGas({ account: subject.from as `0x${string}`, to: call.to, value: call.value, data: call.data }).catch(() => undefined),
  ]);
  return { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas, gasLimit };
}

/**
 * Signed per-(holder, asset) sums, in order of first appearance, the source's native change first;
 * changes that net to zero are left out. A transfer of a token other than the transfer's own (a
 * token contract moving another) has no asset id to name it by and is left out too.
 */
function balanceChanges(input: {
  networkCode: NetworkCode;
  from: string;
  fee: bigint;
  call: SimulatedCall;
  token: SimulationSubject["token"];
}): TransactionSimulation["balanceChanges"] {
  const native = nativeAssetId(input.networkCode);
  const sums = new Map<string, { address: string; assetId: string; delta: bigint }>();
  const add = (address: string, assetId: string, delta: bigint) => {
    const key = `${address}:${assetId}`;
    const entry = sums.get(key) ?? { address, assetId, delta: 0n };
    entry.delta += delta;
    sums.set(key, entry);
  };
  add(input.from, native, -input.fee);
  for (const transfer of input.call.transfers) {
    const assetId = transfer.asset === "native" ? native : transfer.asset === input.token?.contractAddress ? input.token.assetId : null;
    if (!assetId) continue;
    add(transfer.from, assetId, -transfer.value);
    add(transfer.to, assetId, transfer.value);
  }
  return [...sums.values()].filter((s) => s.delta !== 0n).map((s) => ({ ...s, delta: s.delta.toString() }));
}

/** The ERC-6093 and other errors of the catalog's contracts, so a token's custom-error revert reads in words. */
const KNOWN_ERRORS: Abi = [
  ...new Map(
    CONTRACT_TEMPLATES.flatMap((template) => template.artifact.abi.filter((item) => item.type === "error")).map((item) => [
      JSON.stringify(item),
      item,
    ]),
  ).values(),
];

/** `Error(string)`/`Panic` (simulateCalls), else a known custom error with its arguments, else its selector or the node's message. */
function revertReasonOf(call: SimulatedCall): string {
  if (call.revertReason) return call.revertReason;
  const data = call.error?.data ?? call.returnData;
  if (call.status === "reverted" && data && data.length >= 10) {
    try {
      const decoded = decodeErrorResult({ abi: KNOWN_ERRORS, data });
      // Addresses in the canonical lower-case form the records use.
      const args = (decoded.args ?? []).map((arg) => (typeof arg === "string" && isAddress(arg) ? arg.toLowerCase() : String(arg)));
      return `${decoded.errorName}(${args.join(", ")})`;
    } catch {
      return `execution reverted with custom error ${data.slice(0, 10)}`;
    }
  }
  return call.error?.message ?? "execution reverted";
}

function empty(deps: Pick<ServiceDeps, "now">): TransactionSimulation {
  return {
    status: "UNSUPPORTED",
    revertReason: null,
    gasUsed: null,
    balanceChanges: [],
    blockNumber: null,
    simulatedAt: deps.now().toISOString(),
    reason: null,
  };
}

function unsupported(deps: Pick<ServiceDeps, "now">, reason: string): TransactionSimulation {
  return { ...empty(deps), reason };
}
