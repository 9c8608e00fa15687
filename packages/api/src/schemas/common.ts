import { NETWORK_CODES, type NetworkCode } from "@qc/chain";
import { SCOPES } from "@qc/core";
import { z } from "zod";

/** RFC 3339 UTC with milliseconds, as every timestamp leaves the service (CONTRACT §1). */
export const timestamp = z.string().meta({ description: "RFC 3339 timestamp, UTC, milliseconds", example: "2026-11-21T10:00:00.000Z" });
export const uuid = z.uuid();
export const scope = z.enum(SCOPES);
export const networkCode = z
  .enum(NETWORK_CODES as [NetworkCode, ...NetworkCode[]])
  .meta({ description: "QUANTUM_MAINNET (20803) or QUANTUM_SANDBOX (20804)" });
/** A vault id in a path (vaults and the wallets under them). */
export const vaultIdParam = z.uuid().meta({ description: "the vault's id" });

// An unpaired surrogate has no UTF-8 encoding: PostgreSQL refuses it inside jsonb and node-postgres
// silently turns it into U+FFFD in text columns, so two different inputs would be stored as one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isWellFormedText(value: string): boolean {
  return !LONE_SURROGATE.test(value);
}

/**
 * NUL cannot be stored in a PostgreSQL text or jsonb value at all; the other C0 controls and DEL
 * have no place in a name or a filter and are how log and terminal injection starts. Multi-line
 * text keeps tab, line feed and carriage return.
 */
function hasControlCharacter(value: string, allowLineBreaks: boolean): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x7f) return true;
    if (c < 0x20 && !(allowLineBreaks && (c === 0x09 || c === 0x0a || c === 0x0d))) return true;
  }
  return false;
}

/**
 * The one string rule for everything the service stores or puts in SQL: well-formed Unicode, no
 * NUL and no control characters. Every router input string that is not already pinned down by an
 * enum, a uuid or an anchored pattern is built on this (`text().trim().min(1).max(200)`), so
 * hostile input is a 400 VALIDATION_FAILED naming the field instead of a database error.
 */
export function text() {
  return z
    .string()
    .refine(isWellFormedText, "must be well-formed Unicode (no unpaired surrogate)")
    .refine((value) => !hasControlCharacter(value, false), "must not contain control characters (U+0000–U+001F, U+007F)");
}

/** As `text()`, but tab and line breaks are allowed: free text such as reasons and metadata values. */
export function multilineText() {
  return z
    .string()
    .refine(isWellFormedText, "must be well-formed Unicode (no unpaired surrogate)")
    .refine((value) => !hasControlCharacter(value, true), "must not contain control characters other than tab and line breaks");
}

/**
 * Cursor pagination query (CONTRACT §1): limit 1..200, default 50; opaque cursor. A plain number:
 * the REST dispatcher converts `?limit=` from the query string, and a tRPC or JSON input stays
 * strict (no schema here coerces, since a coercing schema accepts `"false"` as `true`).
 */
export const pageQuery = z.object({
  limit: z.number().int().min(1).max(200).default(50),
  cursor: text().min(1).max(200).optional(),
});

export const pageInfo = z.object({ nextCursor: z.string().nullable(), hasMore: z.boolean() });
