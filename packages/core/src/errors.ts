/**
 * The one error type that leaves the service. The table mirrors CONTRACT.md §2 and is the
 * only place that maps an error to an HTTP status; routers, the REST adapter and the tRPC
 * error formatter all read it from here.
 */
export const ERROR_CODES = {
  INTERNAL: { code: 1000, status: 500 },
  VALIDATION_FAILED: { code: 1001, status: 400 },
  KEY_MATERIAL_REJECTED: { code: 1002, status: 400 },
  IDEMPOTENCY_KEY_REQUIRED: { code: 1003, status: 400 },
  INVALID_TOKEN: { code: 1004, status: 400 },
  UNAUTHENTICATED: { code: 1010, status: 401 },
  CREDENTIAL_EXPIRED: { code: 1011, status: 401 },
  CREDENTIAL_ROTATED: { code: 1012, status: 401 },
  CREDENTIAL_REVOKED: { code: 1013, status: 401 },
  INSUFFICIENT_SCOPE: { code: 1020, status: 403 },
  IP_NOT_ALLOWED: { code: 1021, status: 403 },
  TENANT_NOT_VERIFIED: { code: 1022, status: 403 },
  EMAIL_NOT_VERIFIED: { code: 1023, status: 403 },
  INSECURE_TRANSPORT: { code: 1024, status: 403 },
  NOT_FOUND: { code: 1030, status: 404 },
  // Not in CONTRACT §2's table: the contract asks for a flat error body on a wrong method.
  METHOD_NOT_ALLOWED: { code: 1031, status: 405 },
  CONFLICT: { code: 1040, status: 409 },
  IDEMPOTENCY_KEY_IN_USE: { code: 1041, status: 409 },
  IDEMPOTENCY_KEY_MISMATCH: { code: 1042, status: 422 },
  DUPLICATE_EXTERNAL_ID: { code: 1043, status: 409 },
  EMAIL_ALREADY_REGISTERED: { code: 1044, status: 409 },
  PAYLOAD_TOO_LARGE: { code: 1050, status: 413 },
  UNSUPPORTED_MEDIA_TYPE: { code: 1051, status: 415 },
  RATE_LIMITED: { code: 1060, status: 429 },
  LOCKED_OUT: { code: 1061, status: 429 },
  UNAVAILABLE: { code: 1070, status: 503 },
  VAULT_ARCHIVED: { code: 1101, status: 409 },
  WALLET_ARCHIVED: { code: 1102, status: 409 },
  ADDRESS_ALREADY_REGISTERED: { code: 1103, status: 409 },
  NO_SIGNER_KEY_AVAILABLE: { code: 1104, status: 409 },
  INVALID_OWNERSHIP_PROOF: { code: 1105, status: 400 },
  NETWORK_MISMATCH: { code: 1106, status: 400 },
  UNKNOWN_ASSET: { code: 1107, status: 400 },
  WATCH_ONLY_SOURCE: { code: 1201, status: 400 },
  INVALID_SIGNATURE: { code: 1202, status: 400 },
  INVALID_TRANSACTION_STATE: { code: 1203, status: 409 },
  INVALID_ADDRESS: { code: 1204, status: 400 },
} as const satisfies Record<string, { code: number; status: number }>;

export type ErrorName = keyof typeof ERROR_CODES;
export const ERROR_NAMES = Object.keys(ERROR_CODES) as [ErrorName, ...ErrorName[]];

export interface FieldError {
  path: string;
  message: string;
}

export interface ErrorDetails {
  fields?: FieldError[];
  [key: string]: unknown;
}

export interface AppErrorOptions {
  details?: ErrorDetails;
  /** Seconds, sent as Retry-After (429, 503). */
  retryAfter?: number;
  cause?: unknown;
}

export class AppError extends Error {
  override readonly name = "AppError";
  readonly error: ErrorName;
  readonly code: number;
  readonly status: number;
  readonly details: ErrorDetails | undefined;
  readonly retryAfter: number | undefined;

  constructor(error: ErrorName, message: string, options: AppErrorOptions = {}) {
    // A 4xx/503 AppError is an answer, not a fault: its stack says nothing useful and capturing
    // (and, with source maps, rendering) it dominated the cost of a refused request. INTERNAL
    // keeps its stack, and the cause it wraps keeps its own.
    const limit = Error.stackTraceLimit;
    if (error !== "INTERNAL") Error.stackTraceLimit = 0;
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    Error.stackTraceLimit = limit;
    this.error = error;
    this.code = ERROR_CODES[error].code;
    this.status = ERROR_CODES[error].status;
    this.details = options.details;
    this.retryAfter = options.retryAfter;
  }

  static is(value: unknown): value is AppError {
    return value instanceof AppError;
  }
}

/** The flat error body of CONTRACT §2. */
export interface ErrorBody {
  error: ErrorName;
  code: number;
  message: string;
  requestId: string;
  details?: ErrorDetails;
}

export function errorBody(error: AppError, requestId: string): ErrorBody {
  return {
    error: error.error,
    code: error.code,
    message: error.message,
    requestId,
    ...(error.details === undefined ? {} : { details: error.details }),
  };
}

/**
 * Anything that is not an AppError becomes INTERNAL with a fixed message: internal messages
 * and stacks never reach a client (the caller logs the original with the requestId).
 */
export function toAppError(value: unknown): AppError {
  if (value instanceof AppError) return value;
  const cause = (value as { cause?: unknown } | null)?.cause;
  if (cause instanceof AppError) return cause;
  return new AppError("INTERNAL", "internal error", { cause: value });
}
