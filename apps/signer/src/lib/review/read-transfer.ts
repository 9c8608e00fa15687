import { isAddressInput, isNetworkCode, NATIVE_CURRENCY, NETWORKS, parseAddress, type NetworkCode } from "@qc/chain";
import type { Address } from "viem";
import { ReviewRefusedError } from "../errors";
import type { StoredKey } from "../keystore/format";
import { pendingTransactionSchema, type Asset, type SigningRequest } from "../service/signer-api";

/** What `review` shows the person, read from the service's record and nothing else. */
export type DisplayedTransfer = {
  id: string;
  networkCode: NetworkCode;
  chainId: number;
  sourceAddress: Address;
  sourceKey: StoredKey;
  destinationAddress: Address;
  asset: {
    id: string;
    kind: "NATIVE" | "TOKEN";
    symbol: string;
    decimals: number;
    /** The token contract; null for the network's native asset. */
    contractAddress: Address | null;
  };
  /** Base units: Qwei for the native asset, the token's smallest unit otherwise. */
  amount: bigint;
  nonce: number;
  fee: { gasLimit: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
  note: string | null;
  externalId: string | null;
  createdAt: string | null;
  signingRequest: SigningRequest;
};

const MAX_UINT64 = 2n ** 64n - 1n;

function refuse(field: string, reason: string): never {
  throw new ReviewRefusedError([{ field, reason }]);
}

export type ReadTransferParameters = {
  /** One element of `GET /v1/signer/transactions`, as received. */
  transaction: unknown;
  /** `GET /v1/assets?networkCode=<the transaction's network>`. */
  assets: readonly Asset[];
  /** The keystore entry of an address, if this signer holds it. */
  findKey: (address: Address) => StoredKey | undefined;
};

/**
 * Reads a pending transaction into the fields `review` displays, refusing (naming the field)
 * whatever cannot be displayed truthfully: an unknown network, a chain id that is not that
 * network's, a source whose key is not in this keystore, an asset the service does not list
 * on that network. The native asset is always shown as the protocol's own (`Q`, 18
 * decimals), never as the service names it.
 */
export function readTransfer({ transaction, assets, findKey }: ReadTransferParameters): DisplayedTransfer {
  const parsed = pendingTransactionSchema.safeParse(transaction);
  if (!parsed.success) {
    throw new ReviewRefusedError(
      parsed.error.issues.slice(0, 5).map((issue) => ({ field: issue.path.join(".") || "transaction", reason: `is malformed (${issue.message})` })),
    );
  }
  const tx = parsed.data;

  if (tx.type !== "TRANSFER") refuse("type", `is ${tx.type}: this signer reviews transfers only`);
  if (tx.status !== "PENDING_SIGNATURE") refuse("status", `is ${tx.status}, not PENDING_SIGNATURE`);
  if (!isNetworkCode(tx.networkCode)) refuse("networkCode", `"${tx.networkCode}" is not a QUANTUM network`);
  const network = NETWORKS[tx.networkCode];
  if (tx.chainId !== network.chainId) refuse("chainId", `is ${tx.chainId}, but ${network.networkCode} is chain ${network.chainId}`);

  if (tx.destinationAddress === null || !isAddressInput(tx.destinationAddress)) refuse("destinationAddress", "is not an address");
  const destinationAddress = parseAddress(tx.destinationAddress);
  if (!isAddressInput(tx.sourceAddress)) refuse("sourceAddress", "is not an address");
  const sourceAddress = parseAddress(tx.sourceAddress);
  const sourceKey = findKey(sourceAddress) ?? refuse("sourceAddress", `${sourceAddress} is not a key in this keystore`);

  const listed = assets.find((asset) => asset.id === tx.assetId) ?? refuse("assetId", `${tx.assetId ?? "null"} is not an asset of ${tx.networkCode}`);
  if (listed.networkCode !== tx.networkCode) refuse("assetId", `belongs to ${listed.networkCode}, not ${tx.networkCode}`);
  let asset: DisplayedTransfer["asset"];
  if (listed.kind === "NATIVE") {
    if (listed.contractAddress !== null) refuse("assetId", "is listed as the native asset but has a contract address");
    asset = { id: listed.id, kind: "NATIVE", symbol: NATIVE_CURRENCY.symbol, decimals: NATIVE_CURRENCY.decimals, contractAddress: null };
  } else {
    if (listed.contractAddress === null || !isAddressInput(listed.contractAddress)) refuse("assetId", "is a token without a valid contract address");
    asset = { id: listed.id, kind: "TOKEN", symbol: listed.symbol, decimals: listed.decimals, contractAddress: parseAddress(listed.contractAddress) };
  }

  const amount = BigInt(tx.amount);
  if (amount === 0n) refuse("amount", "is zero");
  const nonce = Number(tx.nonce);
  if (!Number.isSafeInteger(nonce)) refuse("nonce", "is out of range");
  const fee = {
    gasLimit: BigInt(tx.fee.gasLimit),
    maxFeePerGas: BigInt(tx.fee.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(tx.fee.maxPriorityFeePerGas),
  };
  if (fee.gasLimit === 0n || fee.gasLimit > MAX_UINT64) refuse("fee.gasLimit", "is out of range");
  if (fee.maxPriorityFeePerGas > fee.maxFeePerGas) refuse("fee.maxPriorityFeePerGas", "exceeds fee.maxFeePerGas");

  return {
    id: tx.id,
    networkCode: tx.networkCode,
    chainId: tx.chainId,
    sourceAddress,
    sourceKey,
    destinationAddress,
    asset,
    amount,
    nonce,
    fee,
    note: tx.note ?? null,
    externalId: tx.externalId ?? null,
    createdAt: tx.createdAt ?? null,
    signingRequest: tx.signingRequest,
  };
}
