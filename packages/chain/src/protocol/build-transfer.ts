import { erc20TransferCalldata } from "../erc20/transfer-calldata";
import { parseAddress } from "./address";
import type { QuantumTransactionSerializable } from "./transaction";

export type BuildQuantumTransferParameters = {
  chainId: number;
  nonce: number;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  gas: bigint;
  /** Recipient of the native amount or of the tokens. */
  to: string;
  /** Qwei for a native transfer, token base units for an ERC-20 transfer. */
  amount: bigint;
  /** ERC-20 contract; absent for a native transfer. */
  token?: string | null;
};

/**
 * The unsigned `0x51` transaction for a transfer: native (`to` = recipient, `value` =
 * amount) or ERC-20 (`to` = token, `value` = 0, `data` = `transfer(recipient, amount)`).
 * Service and signer both build it from the same human-readable intent.
 */
export function buildQuantumTransfer(params: BuildQuantumTransferParameters): QuantumTransactionSerializable {
  const base = {
    chainId: params.chainId,
    nonce: params.nonce,
    maxFeePerGas: params.maxFeePerGas,
    maxPriorityFeePerGas: params.maxPriorityFeePerGas,
    gas: params.gas,
    accessList: [],
  };
  if (params.token) {
    return {
      ...base,
      to: parseAddress(params.token),
      value: 0n,
      data: erc20TransferCalldata({ to: params.to, amount: params.amount }),
    };
  }
  return { ...base, to: parseAddress(params.to), value: params.amount, data: "0x" };
}
