import type { Hex } from "viem";
import { BaseError, walkCauses } from "./base";

/**
 * Reasons a QUANTUM node gives when it refuses a transaction. The devnet returns them as
 * JSON-RPC error `-32003` with `message` starting with the text and `data.reason` the code.
 */
export const TRANSACTION_REJECTION_REASONS = {
  UNSUPPORTED_TYPE: "unsupported transaction type",
  MALFORMED: "malformed transaction",
  INVALID_SIGNATURE: "invalid signature",
  WRONG_CHAIN_ID: "wrong chain id",
  NONCE_TOO_LOW: "nonce too low",
  NONCE_TOO_HIGH: "nonce too high",
  INSUFFICIENT_FUNDS: "insufficient funds",
  FEE_TOO_LOW: "fee too low",
  REPLACEMENT_UNDERPRICED: "replacement transaction underpriced",
  INTRINSIC_GAS_TOO_LOW: "intrinsic gas too low",
  GAS_LIMIT_EXCEEDED: "exceeds block gas limit",
  TXPOOL_FULL: "txpool is full",
} as const;

export type TransactionRejectionReason = keyof typeof TRANSACTION_REJECTION_REASONS;

/** JSON-RPC code of a transaction refused at admission (EIP-1474 "transaction rejected"). */
export const TRANSACTION_REJECTED_RPC_CODE = -32003;

type NodeErrorArgs = { cause?: unknown; details?: string | undefined };

export type NonceTooLowErrorType = NonceTooLowError & { name: "NonceTooLowError" };
export class NonceTooLowError extends BaseError {
  constructor(args: NodeErrorArgs = {}) {
    super("Nonce is lower than the account's next nonce: it was already used.", { ...args, name: "NonceTooLowError" });
  }
}

export type NonceTooHighErrorType = NonceTooHighError & { name: "NonceTooHighError" };
export class NonceTooHighError extends BaseError {
  constructor(args: NodeErrorArgs = {}) {
    super("Nonce is too far ahead of the account's next nonce.", { ...args, name: "NonceTooHighError" });
  }
}

export type InsufficientFundsErrorType = InsufficientFundsError & { name: "InsufficientFundsError" };
export class InsufficientFundsError extends BaseError {
  constructor(args: NodeErrorArgs = {}) {
    super("The sender cannot pay gas * maxFeePerGas + value.", { ...args, name: "InsufficientFundsError" });
  }
}

export type FeeTooLowErrorType = FeeTooLowError & { name: "FeeTooLowError" };
/** Underpriced: fee cap below the base fee, or a replacement without the required bump. */
export class FeeTooLowError extends BaseError {
  readonly reason: "baseFee" | "replacement" | "underpriced";
  constructor(args: NodeErrorArgs & { reason?: "baseFee" | "replacement" | "underpriced" } = {}) {
    const reason = args.reason ?? "underpriced";
    super(
      reason === "replacement"
        ? "Replacement transaction is underpriced: raise both fees by at least 10%."
        : "Transaction fee is too low for the current base fee.",
      { cause: args.cause, details: args.details, name: "FeeTooLowError" },
    );
    this.reason = reason;
  }
}
/** Alias: geth and viem say "underpriced". */
export { FeeTooLowError as TransactionUnderpricedError };

export type InvalidTransactionSignatureErrorType = InvalidTransactionSignatureError & {
  name: "InvalidTransactionSignatureError";
};
export class InvalidTransactionSignatureError extends BaseError {
  constructor(args: NodeErrorArgs = {}) {
    super("The node rejected the transaction signature.", { ...args, name: "InvalidTransactionSignatureError" });
  }
}

export type WrongChainIdErrorType = WrongChainIdError & { name: "WrongChainIdError" };
export class WrongChainIdError extends BaseError {
  constructor(args: NodeErrorArgs = {}) {
    super("The transaction is for another chain.", { ...args, name: "WrongChainIdError" });
  }
}

export type TransactionRejectedErrorType = TransactionRejectedError & { name: "TransactionRejectedError" };
/** The node refused the transaction for a reason without a more specific class. */
export class TransactionRejectedError extends BaseError {
  readonly reason: string | undefined;
  constructor(args: NodeErrorArgs & { reason?: string | undefined } = {}) {
    super("The node rejected the transaction.", { cause: args.cause, details: args.details, name: "TransactionRejectedError" });
    this.reason = args.reason;
  }
}

export type TransactionNotFoundErrorType = TransactionNotFoundError & { name: "TransactionNotFoundError" };
export class TransactionNotFoundError extends BaseError {
  readonly hash: Hex | undefined;
  constructor(args: NodeErrorArgs & { hash?: Hex | undefined } = {}) {
    super(args.hash ? `Transaction ${args.hash} is unknown to the node.` : "Transaction is unknown to the node.", {
      cause: args.cause,
      details: args.details,
      name: "TransactionNotFoundError",
    });
    this.hash = args.hash;
  }
}

export type RpcUnavailableErrorType = RpcUnavailableError & { name: "RpcUnavailableError" };
/** No RPC endpoint answered usefully: network failure, timeout, HTTP 5xx/429 or an internal node error. */
export class RpcUnavailableError extends BaseError {
  constructor(args: NodeErrorArgs = {}) {
    super("The chain RPC is unavailable.", { ...args, name: "RpcUnavailableError" });
  }
}

export type CallRevertedErrorType = CallRevertedError & { name: "CallRevertedError" };
export class CallRevertedError extends BaseError {
  readonly data: Hex | undefined;
  constructor(args: NodeErrorArgs & { data?: Hex | undefined } = {}) {
    super("Execution reverted.", { cause: args.cause, details: args.details, name: "CallRevertedError" });
    this.data = args.data;
  }
}

export type ChainRpcErrorType = ChainRpcError & { name: "ChainRpcError" };
/** Any other error from the node. */
export class ChainRpcError extends BaseError {
  readonly code: number | undefined;
  constructor(args: NodeErrorArgs & { code?: number | undefined } = {}) {
    super("The chain RPC returned an error.", { cause: args.cause, details: args.details, name: "ChainRpcError" });
    this.code = args.code;
  }
}

export type MappedRpcError =
  | NonceTooLowError
  | NonceTooHighError
  | InsufficientFundsError
  | FeeTooLowError
  | InvalidTransactionSignatureError
  | WrongChainIdError
  | TransactionRejectedError
  | TransactionNotFoundError
  | RpcUnavailableError
  | CallRevertedError
  | ChainRpcError;

const UNAVAILABLE_ERROR_NAMES = new Set([
  "HttpRequestError",
  "TimeoutError",
  "WebSocketRequestError",
  "SocketClosedError",
  "InternalRpcError",
  "LimitExceededRpcError",
  "ResourceUnavailableRpcError",
]);
const UNAVAILABLE_CODES = new Set([-32603, -32005, -32002, 429]);
const NOT_FOUND_ERROR_NAMES = new Set(["TransactionNotFoundError", "TransactionReceiptNotFoundError"]);

type RpcErrorInfo = {
  code: number | undefined;
  reason: string | undefined;
  data: unknown;
  names: string[];
  text: string;
  status: number | undefined;
  hash: Hex | undefined;
};

function inspect(error: unknown): RpcErrorInfo {
  const info: RpcErrorInfo = {
    code: undefined,
    reason: undefined,
    data: undefined,
    names: [],
    text: "",
    status: undefined,
    hash: undefined,
  };
  const texts: string[] = [];
  walkCauses(error, (e) => {
    if (!e || typeof e !== "object") {
      if (typeof e === "string") texts.push(e);
      return false;
    }
    const err = e as Record<string, unknown>;
    if (typeof err.name === "string") info.names.push(err.name);
    if (info.code === undefined && typeof err.code === "number") info.code = err.code;
    if (info.status === undefined && typeof err.status === "number") info.status = err.status;
    if (info.hash === undefined && typeof err.hash === "string") info.hash = err.hash as Hex;
    if (info.data === undefined && err.data !== undefined) info.data = err.data;
    const data = err.data as { reason?: unknown } | undefined;
    if (info.reason === undefined && data && typeof data === "object" && typeof data.reason === "string") info.reason = data.reason;
    // Node messages live in `details` (viem) or `message`; viem's full `message` also echoes
    // the request body, so prefer the short forms.
    for (const key of ["details", "shortMessage"] as const) if (typeof err[key] === "string") texts.push(err[key] as string);
    if (typeof err.details !== "string" && typeof err.message === "string") texts.push(err.message);
    if (typeof err.code === "string") texts.push(err.code);
    return false;
  });
  info.text = texts.join("\n");
  return info;
}

function fromReason(reason: string, args: NodeErrorArgs): MappedRpcError | undefined {
  switch (reason as TransactionRejectionReason) {
    case "NONCE_TOO_LOW":
      return new NonceTooLowError(args);
    case "NONCE_TOO_HIGH":
      return new NonceTooHighError(args);
    case "INSUFFICIENT_FUNDS":
      return new InsufficientFundsError(args);
    case "FEE_TOO_LOW":
      return new FeeTooLowError({ ...args, reason: "baseFee" });
    case "REPLACEMENT_UNDERPRICED":
      return new FeeTooLowError({ ...args, reason: "replacement" });
    case "INVALID_SIGNATURE":
      return new InvalidTransactionSignatureError(args);
    case "WRONG_CHAIN_ID":
      return new WrongChainIdError(args);
    case "UNSUPPORTED_TYPE":
    case "MALFORMED":
    case "INTRINSIC_GAS_TOO_LOW":
    case "GAS_LIMIT_EXCEEDED":
    case "TXPOOL_FULL":
      return new TransactionRejectedError({ ...args, reason });
    default:
      return undefined;
  }
}

/**
 * Maps any error from a viem client or a QUANTUM node (devnet `data.reason`, geth-style
 * messages, viem transport errors) to one typed error of this package. Errors already of
 * this package pass through unchanged.
 */
export function mapRpcError(error: unknown): BaseError {
  if (error instanceof BaseError) return error;
  const info = inspect(error);
  const details = info.text.split("\n").find((line) => line.trim().length > 0);
  const args = { cause: error, details };
  if (info.reason) {
    const mapped = fromReason(info.reason, args);
    if (mapped) return mapped;
  }
  if (info.names.some((name) => NOT_FOUND_ERROR_NAMES.has(name))) return new TransactionNotFoundError({ ...args, hash: info.hash });
  const text = info.text.toLowerCase();
  if (/nonce too low|nonce has already been used/.test(text)) return new NonceTooLowError(args);
  if (/nonce too high/.test(text)) return new NonceTooHighError(args);
  if (/insufficient funds/.test(text)) return new InsufficientFundsError(args);
  if (/replacement transaction underpriced/.test(text)) return new FeeTooLowError({ ...args, reason: "replacement" });
  if (/fee too low|max fee per gas less than block base fee|fee cap less than block base fee|transaction is outdated/.test(text)) {
    return new FeeTooLowError({ ...args, reason: "baseFee" });
  }
  if (/underpriced/.test(text)) return new FeeTooLowError({ ...args, reason: "underpriced" });
  if (/invalid signature/.test(text)) return new InvalidTransactionSignatureError(args);
  if (/wrong chain id|invalid chain id|chain id mismatch/.test(text)) return new WrongChainIdError(args);
  if (/transaction not found|unknown transaction/.test(text)) return new TransactionNotFoundError({ ...args, hash: info.hash });
  if (
    info.names.some((name) => UNAVAILABLE_ERROR_NAMES.has(name)) ||
    (info.code !== undefined && UNAVAILABLE_CODES.has(info.code)) ||
    (info.status !== undefined && (info.status >= 500 || info.status === 429 || info.status === 408)) ||
    /fetch failed|econnrefused|econnreset|socket hang up|network error|timed out/.test(text)
  ) {
    return new RpcUnavailableError(args);
  }
  if (info.code === 3 || /execution reverted/.test(text)) {
    const data = typeof info.data === "string" ? (info.data as Hex) : undefined;
    return new CallRevertedError({ ...args, data });
  }
  if (info.code === -32003) return new TransactionRejectedError({ ...args, reason: info.reason });
  return new ChainRpcError({ ...args, code: info.code });
}
