import {
  buildQuantumTransfer,
  ERC20_ABI,
  erc20TransferCalldata,
  MLDSA87_DESCRIPTOR,
  parseQuantumTransaction,
  serializeQuantumTransaction,
  signingHash,
  TRANSACTION_SIGNATURE_CONTEXT,
  type QuantumTransactionUnsigned,
} from "@qc/chain";
import { decodeFunctionData, type Address, type Hex } from "viem";
import { ReviewRefusedError, type ReviewDifference } from "../errors";
import { formatAmount, formatQwei } from "./format-amount";
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
  const request = transfer.signingRequest;
  const problems: ReviewDifference[] = [];
  if (request.descriptor.toLowerCase() !== MLDSA87_DESCRIPTOR) {
    problems.push({ field: "signingRequest.descriptor", reason: `is ${request.descriptor}, not ${MLDSA87_DESCRIPTOR} (ML-DSA-87)` });
  }
  if (request.context !== TRANSACTION_SIGNATURE_CONTEXT) {
    problems.push({ field: "signingRequest.context", reason: `is "${request.context}", not "${TRANSACTION_SIGNATURE_CONTEXT}"` });
  }

  const ours = buildQuantumTransfer({
    chainId: transfer.chainId,
    nonce: transfer.nonce,
    maxFeePerGas: transfer.fee.maxFeePerGas,
    maxPriorityFeePerGas: transfer.fee.maxPriorityFeePerGas,
    gas: transfer.fee.gasLimit,
    to: transfer.destinationAddress,
    amount: transfer.amount,
    token: transfer.asset.contractAddress,
  });
  const unsignedTransaction = serializeQuantumTransaction(ours);
  const ourHash = signingHash(ours);
  const theirBytes = request.unsignedTransaction.toLowerCase() as Hex;

  if (theirBytes !== unsignedTransaction) {
    problems.push(...differences(transfer, theirBytes));
  } else if (request.signingHash.toLowerCase() !== ourHash) {
    problems.push({ field: "signingRequest.signingHash", reason: `is not keccak256 of the unsigned transaction (expected ${ourHash})` });
  }
  if (problems.length > 0) throw new ReviewRefusedError(problems);

  return {
    ...transfer,
    unsignedTransaction,
    signingHash: ourHash,
    tokenCall: transfer.asset.contractAddress ? decodeTransferCall(transfer.asset.contractAddress, theirBytes) : null,
  };
}

function decodeTransferCall(token: Address, unsigned: Hex) {
  const tx = parseQuantumTransaction(unsigned);
  const call = decodeFunctionData({ abi: ERC20_ABI, data: tx.data });
  const [recipient, amount] = call.args as readonly [Address, bigint];
  return { token, recipient: recipient.toLowerCase() as Address, amount };
}

/** Field by field, what the service's transaction says against what is displayed. */
function differences(transfer: DisplayedTransfer, theirBytes: Hex): ReviewDifference[] {
  let theirs: QuantumTransactionUnsigned;
  try {
    const parsed = parseQuantumTransaction(theirBytes);
    if ("signature" in parsed) {
      return [{ field: "signingRequest.unsignedTransaction", reason: "already carries a signature" }];
    }
    theirs = parsed;
  } catch (error) {
    return [{ field: "signingRequest.unsignedTransaction", reason: `cannot be decoded (${(error as { shortMessage?: string }).shortMessage ?? "malformed"})` }];
  }
  const found: ReviewDifference[] = [];
  const differ = (field: string, shown: string, asked: string) =>
    found.push({ field, reason: `differs: the transfer shown has ${shown}, the transaction to sign has ${asked}` });
  const { asset, fee } = transfer;
  const qwei = (value: bigint) => formatQwei(value);

  if (theirs.chainId !== transfer.chainId) differ("chainId", String(transfer.chainId), String(theirs.chainId));
  if (theirs.nonce !== transfer.nonce) differ("nonce", String(transfer.nonce), String(theirs.nonce));
  if (theirs.gas !== fee.gasLimit) differ("fee.gasLimit", String(fee.gasLimit), String(theirs.gas));
  if (theirs.maxFeePerGas !== fee.maxFeePerGas) differ("fee.maxFeePerGas", qwei(fee.maxFeePerGas), qwei(theirs.maxFeePerGas));
  if (theirs.maxPriorityFeePerGas !== fee.maxPriorityFeePerGas) {
    differ("fee.maxPriorityFeePerGas", qwei(fee.maxPriorityFeePerGas), qwei(theirs.maxPriorityFeePerGas));
  }

  if (asset.contractAddress === null) {
    if (theirs.to !== transfer.destinationAddress) differ("destinationAddress", transfer.destinationAddress, theirs.to ?? "a contract creation");
    if (theirs.value !== transfer.amount) {
      differ("amount", formatAmount(transfer.amount, asset.decimals, asset.symbol), formatAmount(theirs.value, asset.decimals, asset.symbol));
    }
    if (theirs.data !== "0x") differ("data", "no calldata (a native transfer)", `${(theirs.data.length - 2) / 2} bytes of calldata`);
  } else {
    if (theirs.to !== asset.contractAddress) differ("assetId", `token contract ${asset.contractAddress}`, `a call to ${theirs.to ?? "a contract creation"}`);
    if (theirs.value !== 0n) differ("value", "0 (a token transfer moves no Q)", formatAmount(theirs.value, 18, "Q"));
    found.push(...calldataDifferences(transfer, theirs.data));
  }

  if (theirs.accessList.length > 0) differ("accessList", "none", `${theirs.accessList.length} entries`);
  // The descriptor is fixed by the parser (it refuses any other), so it cannot differ here.
  if (found.length === 0) {
    found.push({ field: "signingRequest.unsignedTransaction", reason: "is not the canonical encoding of the displayed transfer" });
  }
  return found;
}

function calldataDifferences(transfer: DisplayedTransfer, data: Hex): ReviewDifference[] {
  const { asset } = transfer;
  let recipient: Address;
  let amount: bigint;
  try {
    const call = decodeFunctionData({ abi: ERC20_ABI, data });
    if (call.functionName !== "transfer") {
      return [{ field: "data", reason: `differs: the transfer shown is transfer(address,uint256), the calldata calls ${call.functionName}` }];
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
