import { createHash } from "node:crypto";
import { AppError } from "../errors";

/** How long a key's answer is kept and replayed (CONTRACT §6). */
export const IDEMPOTENCY_KEY_RETENTION_MS = 24 * 3600_000;

// 1–255 characters of printable ASCII: what every client library generates (UUIDs, ULIDs,
// "order-123-attempt-1") and what fits a log line and an index without surprises.
const KEY = /^[\x20-\x7e]{1,255}$/;

/**
 * The request's idempotency key, from `X-Idempotency-Key` or `Idempotency-Key` (the IETF
 * httpapi draft's name, which Stripe-style clients send); undefined when neither is sent. Both
 * with different values, or a value that is not 1–255 printable ASCII characters, is 400.
 */
export function idempotencyKeyFromHeaders(headers: {
  xIdempotencyKey?: string | undefined;
  idempotencyKey?: string | undefined;
}): string | undefined {
  const { xIdempotencyKey, idempotencyKey } = headers;
  if (xIdempotencyKey !== undefined && idempotencyKey !== undefined && xIdempotencyKey !== idempotencyKey) {
    throw invalidKey("X-Idempotency-Key and Idempotency-Key carry different values; send one of them");
  }
  const key = xIdempotencyKey ?? idempotencyKey;
  if (key === undefined) return undefined;
  if (!KEY.test(key)) throw invalidKey("the idempotency key must be 1–255 printable ASCII characters");
  return key;
}

function invalidKey(message: string): AppError {
  return new AppError("VALIDATION_FAILED", message, { details: { fields: [{ path: "X-Idempotency-Key", message }] } });
}

/**
 * JSON with object keys sorted at every level, so that two bodies that mean the same thing
 * (same fields in another order, other whitespace) are the same request.
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return "null";
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== "object" || Array.isArray(inner)) return inner;
    return Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

/** SHA-256 (hex) of method, path and the canonical JSON input: "the same request" means the same hash. */
export function idempotencyRequestHash(request: { method: string; path: string; input: unknown }): string {
  return createHash("sha256")
    .update(`${request.method.toUpperCase()}\n${request.path}\n${canonicalJson(request.input)}`)
    .digest("hex");
}
