import { isAddressInput, isNetworkCode, NETWORKS, parseAddress, type NetworkCode } from "@qc/chain";
import type { Address } from "viem";
import type { z } from "zod";
import { ReviewRefusedError } from "../errors";
import type { StoredKey } from "../keystore/format";
import { pendingTransactionSchema, type PendingTransaction } from "../service/signer-api";

/** The fee caps `review` shows and signs, in base units. */
export type DisplayedFee = { gasLimit: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

const MAX_UINT64 = 2n ** 64n - 1n;

/** Refuses the review, naming the field of the record at fault. */
export function refuse(field: string, reason: string): never {
  throw new ReviewRefusedError([{ field, reason }]);
}

/** One element of `GET /v1/signer/transactions`, as received, in the record's shape (the first 5 faults named). */
export function parsePendingTransaction(transaction: unknown): PendingTransaction {
  return parseRecord(pendingTransactionSchema, transaction);
}

/** A record as received, in the shape `schema` gives it, or a refusal naming its first 5 faults. */
export function parseRecord<S extends z.ZodType>(schema: S, transaction: unknown): z.infer<S> {
  const parsed = schema.safeParse(transaction);
  if (!parsed.success) {
    throw new ReviewRefusedError(
      parsed.error.issues
        .slice(0, 5)
        .map((issue) => ({ field: issue.path.join(".") || "transaction", reason: `is malformed (${issue.message})` })),
    );
  }
  return parsed.data;
}

/** In `status` (pending signature by default), on a QUANTUM network this signer knows, with that network's chain id. */
export function readNetwork(
  tx: Pick<PendingTransaction, "status" | "networkCode" | "chainId">,
  status = "PENDING_SIGNATURE",
): { networkCode: NetworkCode; chainId: number } {
  if (tx.status !== status) refuse("status", `is ${tx.status}, not ${status}`);
  if (!isNetworkCode(tx.networkCode)) refuse("networkCode", `"${tx.networkCode}" is not a QUANTUM network`);
  const network = NETWORKS[tx.networkCode];
  if (tx.chainId !== network.chainId) refuse("chainId", `is ${tx.chainId}, but ${network.networkCode} is chain ${network.chainId}`);
  return { networkCode: tx.networkCode, chainId: tx.chainId };
}

/** The source address, whose key must be in this keystore. */
export function readSource(
  tx: PendingTransaction,
  findKey: (address: Address) => StoredKey | undefined,
): { sourceAddress: Address; sourceKey: StoredKey } {
  if (!isAddressInput(tx.sourceAddress)) refuse("sourceAddress", "is not an address");
  const sourceAddress = parseAddress(tx.sourceAddress);
  const sourceKey = findKey(sourceAddress) ?? refuse("sourceAddress", `${sourceAddress} is not a key in this keystore`);
  return { sourceAddress, sourceKey };
}

/**
 * The nonce and fee caps of any kind of transaction: a safe-integer nonce, a gas limit in
 * 1..2^64-1, and a priority fee no higher than the max fee per gas.
 */
export function parseNonceAndFee(tx: PendingTransaction): { nonce: number; fee: DisplayedFee } {
  const nonce = Number(tx.nonce);
  if (!Number.isSafeInteger(nonce)) refuse("nonce", "is out of range");
  const fee = {
    gasLimit: BigInt(tx.fee.gasLimit),
    maxFeePerGas: BigInt(tx.fee.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(tx.fee.maxPriorityFeePerGas),
  };
  if (fee.gasLimit === 0n || fee.gasLimit > MAX_UINT64) refuse("fee.gasLimit", "is out of range");
  if (fee.maxPriorityFeePerGas > fee.maxFeePerGas) refuse("fee.maxPriorityFeePerGas", "exceeds fee.maxFeePerGas");
  return { nonce, fee };
}
