import {
  buildQuantumTransfer,
  ERC20_ABI,
  erc20TransferCalldata,
  parseQuantumTransaction,
  type QuantumTransactionUnsigned,
} from "@qc/chain";
import { decodeFunctionData, type Address, type Hex } from "viem";
import type { ReviewDifference } from "../errors";
import { compareSigningRequest, type Differ } from "./compare-signing-request";
import { formatAmount } from "./format-amount";
import type { DisplayedTransfer } from "./read-transfer";

/** A transfer whose signing request the signer rebuilt itself and found identical. */
export type VerifiedTransfer = DisplayedTransfer & {
  /** Rebuilt here from the displayed fields; equal to what the service sent. */
  unsignedTransaction: Hex;
  /** keccak256 of `unsignedTransaction`, computed here: the only hash this signer signs. */
  signingHash: Hex;
  /** For a token transfer, the `transfer(recipient, amount)` call decoded from the calldata. */
  tokenCall: { token: Address; recipient: Address; amount: bigint } | null;
};

/**
 * Rebuilds the unsigned `0x51` transaction and its signing hash from the displayed fields
 * (`buildQuantumTransfer`, as the service does) and compares them with the service's signing
 * request. Any difference refuses, naming the displayed field it contradicts, so that a
 * service (compromised or buggy) cannot obtain a signature for a transfer the person did not
 * see.
 */
export function verifySigningRequest(transfer: DisplayedTransfer): VerifiedTransfer {
  const { unsignedTransaction, signingHash, theirBytes } = compareSigningRequest({
    noun: "transfer",
    shown: transfer,
    rebuild: () =>
      buildQuantumTransfer({
        chainId: transfer.chainId,
        nonce: transfer.nonce,
        maxFeePerGas: transfer.fee.maxFeePerGas,
        maxPriorityFeePerGas: transfer.fee.maxPriorityFeePerGas,
        gas: transfer.fee.gasLimit,
        to: transfer.destinationAddress,
        amount: transfer.amount,
        token: transfer.asset.contractAddress,
      }),
    ownDifferences: (theirs, differ) => transferDifferences(transfer, theirs, differ),
  });
  return {
    ...transfer,
    unsignedTransaction,
    signingHash,
    tokenCall: transfer.asset.contractAddress ? decodeTransferCall(transfer.asset.contractAddress, theirBytes) : null,
  };
}

function decodeTransferCall(token: Address, unsigned: Hex) {
  const tx = parseQuantumTransaction(unsigned);
  const call = decodeFunctionData({ abi: ERC20_ABI, data: tx.data });
  const [recipient, amount] = call.args as readonly [Address, bigint];
  return { token, recipient: recipient.toLowerCase() as Address, amount };
}

/** What the service's transaction says against the transfer's own fields: destination, amount, token call. */
function transferDifferences(transfer: DisplayedTransfer, theirs: QuantumTransactionUnsigned, differ: Differ): ReviewDifference[] {
  const { asset } = transfer;
  if (asset.contractAddress === null) {
    if (theirs.to !== transfer.destinationAddress)
      differ("destinationAddress", transfer.destinationAddress, theirs.to ?? "a contract creation");
    if (theirs.value !== transfer.amount) {
      differ(
        "amount",
        formatAmount(transfer.amount, asset.decimals, asset.symbol),
        formatAmount(theirs.value, asset.decimals, asset.symbol),
      );
    }
    if (theirs.data !== "0x") differ("data", "no calldata (a native transfer)", `${(theirs.data.length - 2) / 2} bytes of calldata`);
    return [];
  }
  if (theirs.to !== asset.contractAddress)
    differ("assetId", `token contract ${asset.contractAddress}`, `a call to ${theirs.to ?? "a contract creation"}`);
  if (theirs.value !== 0n) differ("value", "0 (a token transfer moves no Q)", formatAmount(theirs.value, 18, "Q"));
  return calldataDifferences(transfer, theirs.data);
}

function calldataDifferences(transfer: DisplayedTransfer, data: Hex): ReviewDifference[] {
  const { asset } = transfer;
  let recipient: Address;
  let amount: bigint;
  try {
    const call = decodeFunctionData({ abi: ERC20_ABI, data });
    if (call.functionName !== "transfer") {
      return [
        { field: "data", reason: `differs: the transfer shown is transfer(address,uint256), the calldata calls ${call.functionName}` },
      ];
    }
    [recipient, amount] = call.args as readonly [Address, bigint];
  } catch {
    return [{ field: "data", reason: "differs: the calldata is not an ERC-20 transfer(address,uint256) call" }];
  }
  const found: ReviewDifference[] = [];
  if (recipient.toLowerCase() !== transfer.destinationAddress) {
    found.push({
      field: "destinationAddress",
      reason: `differs: the transfer shown pays ${transfer.destinationAddress}, the calldata pays ${recipient.toLowerCase()}`,
    });
  }
  if (amount !== transfer.amount) {
    found.push({
      field: "amount",
      reason: `differs: the transfer shown has ${formatAmount(transfer.amount, asset.decimals, asset.symbol)}, the calldata has ${formatAmount(amount, asset.decimals, asset.symbol)}`,
    });
  }
  if (found.length === 0 && erc20TransferCalldata({ to: recipient, amount }) !== data) {
    found.push({ field: "data", reason: "differs: the calldata carries extra or non-canonical bytes" });
  }
  return found;
}
