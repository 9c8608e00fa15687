import { isAddressInput, NATIVE_CURRENCY, parseAddress, type NetworkCode } from "@qc/chain";
import type { Address } from "viem";
import type { StoredKey } from "../keystore/format";
import type { Asset, SigningRequest } from "../service/signer-api";
import { compareReplacement, type ReplacedOriginal } from "./compare-replacement";
import { parseNonceAndFee, parsePendingTransaction, readNetwork, readSource, refuse, type DisplayedFee } from "./read-pending-transaction";

/** An asset as `review` and `approve` show it. */
export type DisplayedAsset = {
  id: string;
  kind: Asset["kind"];
  symbol: string;
  decimals: number;
  /** The token contract; null for the network's native asset. */
  contractAddress: Address | null;
};

/** What `review` shows the person, read from the service's record and nothing else. */
export type DisplayedTransfer = {
  id: string;
  /** A REPLACEMENT is a speed-up of a transfer: the same transfer at the same nonce with higher fee caps (CONTRACT §17). */
  type: "TRANSFER" | "REPLACEMENT";
  /** A replacement's original, checked: everything but the fee caps is the same. */
  replaces: ReplacedOriginal | null;
  networkCode: NetworkCode;
  chainId: number;
  sourceAddress: Address;
  sourceKey: StoredKey;
  destinationAddress: Address;
  asset: DisplayedAsset;
  /** Base units: Qwei for the native asset, the token's smallest unit otherwise. */
  amount: bigint;
  nonce: number;
  fee: DisplayedFee;
  note: string | null;
  externalId: string | null;
  createdAt: string | null;
  signingRequest: SigningRequest;
};

export type ReadTransferParameters = {
  /** One element of `GET /v1/signer/transactions`, as received. */
  transaction: unknown;
  /** `GET /v1/assets?networkCode=<the transaction's network>`. */
  assets: readonly Asset[];
  /** The keystore entry of an address, if this signer holds it. */
  findKey: (address: Address) => StoredKey | undefined;
  /** For a REPLACEMENT: `GET /v1/transactions/{replacesTransactionId}`, as received (without it a replacement is refused). */
  original?: unknown;
};

/**
 * Reads a pending transfer (or a transfer's REPLACEMENT, compared with its `original`: only the fee
 * caps may differ) into the fields `review` displays, refusing (naming the field)
 * whatever cannot be displayed truthfully: an unknown network, a chain id that is not that
 * network's, a source whose key is not in this keystore, an asset the service does not list
 * on that network. The native asset is always shown as the protocol's own (`Q`, 18
 * decimals), never as the service names it.
 */
export function readTransfer({ transaction, assets, findKey, original }: ReadTransferParameters): DisplayedTransfer {
  const tx = parsePendingTransaction(transaction);
  if (tx.type !== "TRANSFER" && tx.type !== "REPLACEMENT") refuse("type", `is ${tx.type}: not a transfer`);
  if (tx.type === "REPLACEMENT" && tx.deployment !== undefined)
    refuse("deployment", "is set: a deployment's replacement is not a transfer");
  const replaces =
    tx.type === "REPLACEMENT"
      ? compareReplacement(tx, original ?? refuse("replacesTransactionId", "the original was not fetched to compare the replacement with"))
      : null;
  const network = readNetwork(tx);
  const { networkCode } = network;

  if (tx.destinationAddress === null || !isAddressInput(tx.destinationAddress)) refuse("destinationAddress", "is not an address");
  const destinationAddress = parseAddress(tx.destinationAddress);
  const source = readSource(tx, findKey);

  const asset = readListedAsset(assets, tx.assetId, networkCode);

  const amount = BigInt(tx.amount);
  if (amount === 0n) refuse("amount", "is zero");
  const nonceAndFee = parseNonceAndFee(tx);

  return {
    id: tx.id,
    type: tx.type,
    replaces,
    ...network,
    ...source,
    destinationAddress,
    asset,
    amount,
    ...nonceAndFee,
    note: tx.note ?? null,
    externalId: tx.externalId ?? null,
    createdAt: tx.createdAt ?? null,
    signingRequest: tx.signingRequest,
  };
}

/**
 * The record's asset as the service lists it on the transaction's network, refused (naming
 * `assetId`) when it is not listed there. The native asset is always shown as the protocol's own
 * (`Q`, 18 decimals), never as the service names it.
 */
export function readListedAsset(assets: readonly Asset[], assetId: string | null, networkCode: NetworkCode): DisplayedAsset {
  const listed =
    assets.find((asset) => asset.id === assetId) ?? refuse("assetId", `${assetId ?? "null"} is not an asset of ${networkCode}`);
  if (listed.networkCode !== networkCode) refuse("assetId", `belongs to ${listed.networkCode}, not ${networkCode}`);
  if (listed.kind === "NATIVE") {
    if (listed.contractAddress !== null) refuse("assetId", "is listed as the native asset but has a contract address");
    return { id: listed.id, kind: "NATIVE", symbol: NATIVE_CURRENCY.symbol, decimals: NATIVE_CURRENCY.decimals, contractAddress: null };
  }
  if (listed.contractAddress === null || !isAddressInput(listed.contractAddress))
    refuse("assetId", "is a token without a valid contract address");
  return {
    id: listed.id,
    kind: "TOKEN",
    symbol: listed.symbol,
    decimals: listed.decimals,
    contractAddress: parseAddress(listed.contractAddress),
  };
}
