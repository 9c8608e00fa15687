import type { NetworkCode } from "@qc/chain";
import { isAddressInput, parseAddress } from "@qc/chain";
import type { Address } from "viem";
import type { StoredKey } from "../keystore/format";
import type { SigningRequest } from "../service/signer-api";
import { parseNonceAndFee, parsePendingTransaction, readNetwork, readSource, refuse, type DisplayedFee } from "./read-pending-transaction";

/** The types whose transaction is zero value from the source to itself (CONTRACT §17). */
export const SELF_SEND_TYPES = ["NONCE_FILL", "CANCELLATION"] as const;
export type SelfSendType = (typeof SELF_SEND_TYPES)[number];
export const isSelfSendType = (type: unknown): type is SelfSendType => (SELF_SEND_TYPES as readonly unknown[]).includes(type);

/** What `review` shows for a nonce fill or a cancellation: no asset, no amount, the source as its own destination. */
export type DisplayedSelfSend = {
  id: string;
  type: SelfSendType;
  networkCode: NetworkCode;
  chainId: number;
  sourceAddress: Address;
  sourceKey: StoredKey;
  /** Always the source itself: what the person confirms the last 4 characters of. */
  destinationAddress: Address;
  nonce: number;
  fee: DisplayedFee;
  /** A cancellation's original (the transaction whose nonce it takes), as the record names it. */
  replacesTransactionId: string | null;
  note: string | null;
  externalId: string | null;
  signingRequest: SigningRequest;
};

/**
 * Reads a pending NONCE_FILL or CANCELLATION, refusing (naming the field) a record that says it
 * moves anything: an amount other than 0, or a destination other than the source itself. The
 * transaction is then rebuilt from the chain, nonce and fee caps alone as zero value to the source
 * with no data (verifySelfSendRequest): whatever else the record says cannot reach the bytes signed.
 */
export function readSelfSend(input: { transaction: unknown; findKey: (address: Address) => StoredKey | undefined }): DisplayedSelfSend {
  const tx = parsePendingTransaction(input.transaction);
  if (!isSelfSendType(tx.type)) refuse("type", `is ${tx.type}, not NONCE_FILL or CANCELLATION`);
  const network = readNetwork(tx);
  const source = readSource(tx, input.findKey);
  if (tx.amount !== "0") refuse("amount", `is ${tx.amount}: a ${tx.type} moves no value`);
  if (tx.destinationAddress !== null) {
    if (!isAddressInput(tx.destinationAddress)) refuse("destinationAddress", "is not an address");
    if (parseAddress(tx.destinationAddress) !== source.sourceAddress)
      refuse("destinationAddress", `is ${parseAddress(tx.destinationAddress)}: a ${tx.type} is sent by the source to itself`);
  }
  const replaces = (input.transaction as { replacesTransactionId?: unknown }).replacesTransactionId;
  return {
    id: tx.id,
    type: tx.type,
    ...network,
    ...source,
    destinationAddress: source.sourceAddress,
    ...parseNonceAndFee(tx),
    replacesTransactionId: typeof replaces === "string" ? replaces : null,
    note: tx.note ?? null,
    externalId: tx.externalId ?? null,
    signingRequest: tx.signingRequest,
  };
}
