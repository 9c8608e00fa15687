import { BaseError } from "./base";

export type InvalidSerializedTransactionErrorType = InvalidSerializedTransactionError & {
  name: "InvalidSerializedTransactionError";
};

/** Bytes that are not a well-formed, canonically encoded `0x51` transaction. */
export class InvalidSerializedTransactionError extends BaseError {
  readonly reason: string;
  constructor({ reason, cause }: { reason: string; cause?: unknown }) {
    super(`Invalid serialized QUANTUM transaction: ${reason}.`, { cause, name: "InvalidSerializedTransactionError" });
    this.reason = reason;
  }
}

export type TransactionHashMismatchErrorType = TransactionHashMismatchError & { name: "TransactionHashMismatchError" };

/** The raw transaction does not hash to the hash the caller holds for it: it is not sent. */
export class TransactionHashMismatchError extends BaseError {
  constructor({ expected, actual }: { expected: string; actual: string }) {
    super(`The raw transaction hashes to ${actual}, not to ${expected}: not sent.`, { name: "TransactionHashMismatchError" });
  }
}

export type InvalidTransactionFieldErrorType = InvalidTransactionFieldError & { name: "InvalidTransactionFieldError" };

/** A transaction field is missing or out of range before serialization. */
export class InvalidTransactionFieldError extends BaseError {
  readonly field: string;
  constructor({ field, reason }: { field: string; reason: string }) {
    super(`Transaction field \`${field}\` ${reason}.`, { name: "InvalidTransactionFieldError" });
    this.field = field;
  }
}

export type UnsupportedOperationErrorType = UnsupportedOperationError & { name: "UnsupportedOperationError" };

export class UnsupportedOperationError extends BaseError {
  constructor(operation: string, reason: string) {
    super(`${operation} is not supported: ${reason}.`, { name: "UnsupportedOperationError" });
  }
}
