/**
 * Where an error comes from, which decides what else reads it:
 * - `request`: the request guards refuse the request itself, on any route, before it runs;
 * - `fault`: the service or a dependency failed (any route can answer it);
 * - `authentication`: the credential, its scope, the member's role, the allowlist or the rate limit refused the caller;
 * - `verification`: the tenant is not verified yet (value-moving routes only);
 * - `idempotency`: the Idempotency-Key header refused the request;
 * - `web`: the web server refused the request before any route (transport, origin, method);
 * - `moved-on`: the state is not (or no longer) the one the request assumed;
 * - `business`: a route's own answer to a request it executed.
 * The first five mean the request did not execute (NOT_EXECUTED_ERRORS).
 */
export type ErrorCategory = "request" | "fault" | "authentication" | "verification" | "idempotency" | "web" | "moved-on" | "business";

/**
 * The one error type that leaves the service. The table mirrors CONTRACT.md §2 and is the
 * only place that maps an error to an HTTP status and a category; routers, the REST adapter,
 * the tRPC error formatter, the OpenAPI document, idempotency and the job runner all read it from
 * here. `transient`: the same request may succeed later (a job retries it).
 */
export const ERROR_CODES = {
  INTERNAL: { code: 1000, status: 500, category: "fault", transient: true },
  VALIDATION_FAILED: { code: 1001, status: 400, category: "request" },
  KEY_MATERIAL_REJECTED: { code: 1002, status: 400, category: "request" },
  IDEMPOTENCY_KEY_REQUIRED: { code: 1003, status: 400, category: "idempotency" },
  INVALID_TOKEN: { code: 1004, status: 400, category: "business" },
  UNAUTHENTICATED: { code: 1010, status: 401, category: "authentication" },
  CREDENTIAL_EXPIRED: { code: 1011, status: 401, category: "authentication" },
  CREDENTIAL_ROTATED: { code: 1012, status: 401, category: "authentication" },
  CREDENTIAL_REVOKED: { code: 1013, status: 401, category: "authentication" },
  INSUFFICIENT_SCOPE: { code: 1020, status: 403, category: "authentication" },
  IP_NOT_ALLOWED: { code: 1021, status: 403, category: "authentication" },
  TENANT_NOT_VERIFIED: { code: 1022, status: 403, category: "verification" },
  EMAIL_NOT_VERIFIED: { code: 1023, status: 403, category: "business" },
  INSECURE_TRANSPORT: { code: 1024, status: 403, category: "web" },
  // Not in CONTRACT §2: a cookie-authenticated state change from another site (docs/decisions/foundation.md).
  CROSS_SITE_REQUEST: { code: 1025, status: 403, category: "web" },
  NOT_FOUND: { code: 1030, status: 404, category: "business" },
  // Not in CONTRACT §2's table: the contract asks for a flat error body on a wrong method.
  METHOD_NOT_ALLOWED: { code: 1031, status: 405, category: "web" },
  CONFLICT: { code: 1040, status: 409, category: "moved-on" },
  IDEMPOTENCY_KEY_IN_USE: { code: 1041, status: 409, category: "idempotency", transient: true },
  IDEMPOTENCY_KEY_MISMATCH: { code: 1042, status: 422, category: "idempotency" },
  DUPLICATE_EXTERNAL_ID: { code: 1043, status: 409, category: "business" },
  EMAIL_ALREADY_REGISTERED: { code: 1044, status: 409, category: "business" },
  PAYLOAD_TOO_LARGE: { code: 1050, status: 413, category: "request" },
  UNSUPPORTED_MEDIA_TYPE: { code: 1051, status: 415, category: "request" },
  RATE_LIMITED: { code: 1060, status: 429, category: "authentication", transient: true },
  LOCKED_OUT: { code: 1061, status: 429, category: "authentication" },
  UNAVAILABLE: { code: 1070, status: 503, category: "fault", transient: true },
  VAULT_ARCHIVED: { code: 1101, status: 409, category: "business" },
  WALLET_ARCHIVED: { code: 1102, status: 409, category: "business" },
  ADDRESS_ALREADY_REGISTERED: { code: 1103, status: 409, category: "business" },
  NO_SIGNER_KEY_AVAILABLE: { code: 1104, status: 409, category: "business" },
  INVALID_OWNERSHIP_PROOF: { code: 1105, status: 400, category: "business" },
  NETWORK_MISMATCH: { code: 1106, status: 400, category: "business" },
  UNKNOWN_ASSET: { code: 1107, status: 400, category: "business" },
  WATCH_ONLY_SOURCE: { code: 1201, status: 400, category: "business" },
  INVALID_SIGNATURE: { code: 1202, status: 400, category: "business" },
  INVALID_TRANSACTION_STATE: { code: 1203, status: 409, category: "moved-on" },
  INVALID_ADDRESS: { code: 1204, status: 400, category: "business" },
  INSUFFICIENT_ROLE: { code: 1301, status: 403, category: "authentication" },
  LAST_OWNER: { code: 1302, status: 409, category: "business" },
  PASSKEY_REQUIRED: { code: 1303, status: 409, category: "business" },
  SELF_APPROVAL_FORBIDDEN: { code: 1401, status: 403, category: "business" },
  NOT_AN_APPROVER: { code: 1402, status: 403, category: "business" },
  ADDRESS_ALREADY_LISTED: { code: 1501, status: 409, category: "business" },
} as const satisfies Record<string, { code: number; status: number; category: ErrorCategory; transient?: true }>;

export type ErrorName = keyof typeof ERROR_CODES;
export const ERROR_NAMES = Object.keys(ERROR_CODES) as [ErrorName, ...ErrorName[]];

/** The names of the table's errors in `categories`, in the table's order. */
export const errorsIn = (...categories: ErrorCategory[]): ErrorName[] =>
  ERROR_NAMES.filter((name) => categories.includes(ERROR_CODES[name].category));

/** Errors any operation can answer: the request guards run on every route, before it. */
export const GUARD_ERRORS: readonly ErrorName[] = errorsIn("request", "fault");
/** Errors of the authenticated tier: credentials, scope, role, allowlist and rate limits. */
export const AUTHENTICATION_ERRORS: readonly ErrorName[] = errorsIn("authentication");
/**
 * Errors that mean the request was refused before it executed, or failed and rolled back
 * (CONTRACT §6): an idempotency key is free again and the client may retry with it.
 */
export const NOT_EXECUTED_ERRORS: readonly ErrorName[] = errorsIn("request", "fault", "authentication", "verification", "idempotency");
/** Errors that describe a passing condition: the same request may succeed later. */
export const TRANSIENT_ERRORS: readonly ErrorName[] = ERROR_NAMES.filter((name) => "transient" in ERROR_CODES[name]);
/** Errors that say the state has moved on since the request (or job) was made. */
export const MOVED_ON_ERRORS: readonly ErrorName[] = errorsIn("moved-on");

/**
 * CONTRACT §2/§9: a request body over 1 MB is 413 PAYLOAD_TOO_LARGE. The web guard, both
 * adapters and the documented message all read this one number.
 */
export const MAX_REQUEST_BODY_BYTES = 1_048_576;
export const PAYLOAD_TOO_LARGE_MESSAGE = `request body exceeds ${MAX_REQUEST_BODY_BYTES} bytes`;

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
 * PostgreSQL errors (SQLSTATE) that only a value sent by the client can cause: the last line of
 * defence behind the input schemas, so that a route which forgets the string rule answers 400,
 * never 500. Each maps to the message the client gets.
 */
const INPUT_SQLSTATES: Readonly<Record<string, string>> = {
  "22001": "a value is longer than the service can store",
  "22003": "a number is out of the range the service can store",
  "22021": "a value contains a character the service cannot store (such as NUL)",
  "22P02": "a value is not in a form the service can store (such as text with an unpaired surrogate)",
  "22P05": "a value contains a character the service cannot store (such as NUL)",
  "54001": "the request is nested too deeply",
};

/** The SQLSTATE of a PostgreSQL error anywhere in the cause chain (drivers and ORMs wrap it). */
function inputSqlState(value: unknown): string | undefined {
  let current = value;
  for (let depth = 0; depth < 8 && current !== null && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && code in INPUT_SQLSTATES) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A dependency that cannot be reached or is going away (CONTRACT §2: 503 UNAVAILABLE, "the
 * database is down"), not a fault of ours: sockets refused or cut, PostgreSQL shutting down,
 * starting up or out of connections (SQLSTATE class 08, 57P01–57P03, 53300), and node-postgres's
 * own connection failures, which carry no code.
 */
const UNREACHABLE_SOCKET_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);
const UNAVAILABLE_SQLSTATES: ReadonlySet<string> = new Set(["57P01", "57P02", "57P03", "53300"]);
const UNREACHABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/;

function isDependencyUnreachable(value: unknown): boolean {
  let current = value;
  for (let depth = 0; depth < 8 && current !== null && typeof current === "object"; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (UNREACHABLE_SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith("08")))
      return true;
    if (typeof message === "string" && UNREACHABLE_MESSAGES.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Anything that is not an AppError becomes INTERNAL with a fixed message: internal messages
 * and stacks never reach a client (the caller logs the original with the requestId). A database
 * refusal of the client's own value is VALIDATION_FAILED instead (see INPUT_SQLSTATES), and an
 * unreachable database is UNAVAILABLE (see isDependencyUnreachable).
 */
export function toAppError(value: unknown): AppError {
  if (value instanceof AppError) return value;
  const cause = (value as { cause?: unknown } | null)?.cause;
  if (cause instanceof AppError) return cause;
  if (isDependencyUnreachable(value))
    return new AppError("UNAVAILABLE", "a dependency of the service cannot be reached; retry shortly", { retryAfter: 1, cause: value });
  const sqlState = inputSqlState(value);
  if (sqlState !== undefined) {
    const message = INPUT_SQLSTATES[sqlState]!;
    return new AppError("VALIDATION_FAILED", message, { details: { fields: [{ path: "(request)", message }] }, cause: value });
  }
  return new AppError("INTERNAL", "internal error", { cause: value });
}
