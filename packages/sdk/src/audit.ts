import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";
import canonicalize from "canonicalize";

/** The first row's `prevHash`: 64 zeros. */
export const AUDIT_GENESIS_HASH = "0".repeat(64);

/** The ML-DSA-87 context of every checkpoint signature. */
export const AUDIT_SIGNATURE_CONTEXT = "QUANTUM-AUDIT-v1";

/** One audit row as an export line carries it (`kind: "event"`). */
export interface AuditEventLine {
  kind: "event";
  id: string;
  tenantId: string;
  sequence: number;
  occurredAt: string;
  action: string;
  actor: { type: string; id: string | null; userId: string | null; ip: string | null; requestId: string | null };
  target: { type: string | null; id: string | null } | null;
  details: Record<string, unknown>;
  prevHash: string;
  hash: string;
}

/** A signed checkpoint as an export line carries it (`kind: "checkpoint"`): the head of the chain at `sequence`. */
export interface AuditCheckpointLine {
  kind: "checkpoint";
  tenantId: string;
  sequence: number;
  hash: string;
  signedAt: string;
  keyId: string;
  signature: string;
}

export interface VerifyAuditLogOptions {
  /**
   * The service's audit public keys (hex, from `GET /v1/audit/public-key`): one key, a list (each
   * checkpoint must verify with one of them), or keys by `keyId` (each checkpoint must verify
   * with the key its `keyId` names; keep retired keys here, their checkpoints stay valid).
   * Without keys the chain is checked and every checkpoint's hash matched, but no signature is
   * checked: the answer says `signaturesChecked: false`.
   */
  publicKeys?: string | readonly string[] | Readonly<Record<string, string>>;
}

/** The log holds: every row links to the one before, and every checkpoint matches (and verifies, with keys). */
export interface AuditLogVerified {
  ok: true;
  /** The last sequence this check vouches for: with keys, the last good signed checkpoint's; without, the last row's. */
  lastVerifiedSequence: number;
  firstSequence: number;
  lastSequence: number;
  events: number;
  /** Checkpoints whose signature verified with a key given. */
  checkpointsVerified: number;
  /** Checkpoints whose hash matched but whose signature was not checked (no keys given). */
  checkpointsUnverified: number;
  signaturesChecked: boolean;
}

/** The log does not hold: `firstBadSequence` is the first row that was changed, removed, reordered or is not vouched for. */
export interface AuditLogRefused {
  ok: false;
  firstBadSequence: number | null;
  /** The bad checkpoint's sequence, when a checkpoint failed. */
  checkpointSequence?: number;
  /** 1-based line of the file where the check failed. */
  line: number;
  reason: string;
  /** The last sequence vouched for before the failure (null for none). */
  lastVerifiedSequence: number | null;
}

export type AuditLogVerification = AuditLogVerified | AuditLogRefused;

const HASH = /^[0-9a-f]{64}$/;

/** A key or signature in hex, with or without `0x`. */
function hexBytes(value: string): Uint8Array | undefined {
  const hex = value.startsWith("0x") ? value.slice(2) : value;
  return /^(?:[0-9a-fA-F]{2})+$/.test(hex) ? hexToBytes(hex.toLowerCase()) : undefined;
}

/** SHA-256 (hex) of the RFC 8785 canonical JSON of the eight fields a row's hash covers. */
export function auditEventHash(event: Omit<AuditEventLine, "kind" | "id" | "hash">): string {
  const { tenantId, sequence, occurredAt, action, actor, target, details, prevHash } = event;
  const json = canonicalize({ tenantId, sequence, occurredAt, action, actor, target, details, prevHash });
  if (json === undefined) throw new TypeError("the row has no canonical JSON");
  return bytesToHex(sha256(utf8ToBytes(json)));
}

/** What a checkpoint's signature covers: keccak256 of the RFC 8785 JSON of `{tenantId, sequence, hash, signedAt}`. */
export function auditCheckpointDigest(checkpoint: Pick<AuditCheckpointLine, "tenantId" | "sequence" | "hash" | "signedAt">): Uint8Array {
  const { tenantId, sequence, hash, signedAt } = checkpoint;
  return keccak_256(utf8ToBytes(canonicalize({ tenantId, sequence, hash, signedAt })!));
}

const context = utf8ToBytes(AUDIT_SIGNATURE_CONTEXT);

/** The keys a checkpoint may verify with, or why there are none. */
function candidateKeys(keys: VerifyAuditLogOptions["publicKeys"], keyId: string): string[] | string {
  if (typeof keys === "string") return [keys];
  if (Array.isArray(keys)) return [...(keys as readonly string[])];
  const named = (keys as Readonly<Record<string, string>>)[keyId];
  return named === undefined || !Object.hasOwn(keys as object, keyId)
    ? `it names key ${JSON.stringify(keyId)}, which was not given`
    : [named];
}

function signatureHolds(checkpoint: AuditCheckpointLine, keys: VerifyAuditLogOptions["publicKeys"]): string | undefined {
  const candidates = candidateKeys(keys, checkpoint.keyId);
  if (typeof candidates === "string") return candidates;
  const signature = hexBytes(checkpoint.signature);
  if (!signature) return "its signature is not hex";
  const digest = auditCheckpointDigest(checkpoint);
  for (const key of candidates) {
    const publicKey = hexBytes(key);
    if (!publicKey) throw new TypeError("a public key is not hex");
    try {
      if (ml_dsa87.verify(signature, digest, publicKey, { context })) return undefined;
    } catch {
      // A key or signature of the wrong length: this key does not verify it.
    }
  }
  return "its signature does not verify with the key(s) given";
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isSequence = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 1;

/** Why an event line is not one (undefined when it is). */
function malformedEvent(value: Record<string, unknown>): string | undefined {
  if (typeof value.tenantId !== "string" || !isSequence(value.sequence)) return "an event line without tenantId or sequence";
  if (typeof value.occurredAt !== "string" || typeof value.action !== "string" || !isObject(value.actor) || !isObject(value.details))
    return `row ${value.sequence} lacks occurredAt, action, actor or details`;
  if (value.target !== null && !isObject(value.target)) return `row ${value.sequence} has a malformed target`;
  if (typeof value.prevHash !== "string" || typeof value.hash !== "string" || !HASH.test(value.hash))
    return `row ${value.sequence} lacks prevHash or hash`;
  return undefined;
}

function malformedCheckpoint(value: Record<string, unknown>): string | undefined {
  const fields = ["tenantId", "hash", "signedAt", "keyId", "signature"];
  if (!isSequence(value.sequence) || fields.some((field) => typeof value[field] !== "string")) return "a malformed checkpoint line";
  return undefined;
}

/**
 * Splits a byte or text stream (a fetch `response.body`, a file stream) into lines, for
 * `verifyAuditLog`. Holds one line at a time, however long the log.
 */
export async function* auditLogLines(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const chunk of chunks) {
    rest += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let newline = rest.indexOf("\n");
    while (newline !== -1) {
      yield rest.slice(0, newline);
      rest = rest.slice(newline + 1);
      newline = rest.indexOf("\n");
    }
  }
  rest += decoder.decode();
  if (rest.length > 0) yield rest;
}

/**
 * Checks an audit export (`GET /v1/audit-events/export`, NDJSON), one line at a time and in
 * constant memory, without trusting the service: every row's hash is recomputed from its fields
 * (SHA-256 of their RFC 8785 JSON), every `prevHash` must be the hash of the row before, sequences
 * must follow each other without a gap from the first row in the file (the first row of a full
 * export has the genesis `prevHash`), and each checkpoint must come right after the row it names,
 * carry that row's hash and, with `publicKeys`, verify (ML-DSA-87, `QUANTUM-AUDIT-v1`).
 *
 * A row changed without its hash, a removed or reordered row, or one changed with the chain
 * rewritten after it (caught at the next checkpoint), are refused: `firstBadSequence` names the
 * first row that is wrong, or, for a checkpoint that fails, the first row after the last good
 * checkpoint (nothing from there on is vouched for). Blank lines are skipped.
 */
export async function verifyAuditLog(
  lines: AsyncIterable<string> | Iterable<string>,
  options: VerifyAuditLogOptions = {},
): Promise<AuditLogVerification> {
  const signaturesChecked = options.publicKeys !== undefined;
  let lineNumber = 0;
  let tenantId: string | undefined;
  let first: number | undefined;
  let last: { sequence: number; hash: string } | undefined;
  let lastGoodCheckpoint: number | undefined;
  let events = 0;
  let checkpointsVerified = 0;
  let checkpointsUnverified = 0;

  const vouched = () => (signaturesChecked ? (lastGoodCheckpoint ?? null) : (last?.sequence ?? null));
  const refuse = (firstBadSequence: number | null, reason: string, checkpointSequence?: number): AuditLogRefused => ({
    ok: false,
    firstBadSequence,
    ...(checkpointSequence === undefined ? {} : { checkpointSequence }),
    line: lineNumber,
    reason,
    lastVerifiedSequence: vouched(),
  });
  const next = () => (last ? last.sequence + 1 : null);
  // A failed checkpoint: every row after the last good one is unvouched.
  const refuseCheckpoint = (sequence: number, why: string) =>
    refuse((lastGoodCheckpoint ?? (first ?? sequence) - 1) + 1, `the checkpoint at sequence ${sequence} is bad: ${why}`, sequence);

  for await (const text of lines) {
    lineNumber += 1;
    if (text.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return refuse(next(), `line ${lineNumber} is not JSON`);
    }
    if (!isObject(value)) return refuse(next(), `line ${lineNumber} is not an object`);
    if (value.kind === "event") {
      const malformed = malformedEvent(value);
      if (malformed) return refuse(next(), malformed);
      const event = value as unknown as AuditEventLine;
      tenantId ??= event.tenantId;
      if (event.tenantId !== tenantId) return refuse(next(), `row ${event.sequence} belongs to another tenant`);
      if (last && event.sequence !== last.sequence + 1) {
        const expected = last.sequence + 1;
        return refuse(
          expected,
          event.sequence > expected
            ? `row ${expected} is missing (removed or moved): row ${event.sequence} follows row ${last.sequence}`
            : `row ${event.sequence} is out of order: it follows row ${last.sequence}, where row ${expected} belongs`,
        );
      }
      if (auditEventHash(event) !== event.hash)
        return refuse(event.sequence, `row ${event.sequence} was changed: its hash does not match its content`);
      if (!last && event.sequence === 1 && event.prevHash !== AUDIT_GENESIS_HASH)
        return refuse(1, "row 1 was changed: its prevHash is not the genesis hash");
      // Both rows hash right, but do not link: the row before was changed and its hash recomputed
      // (or this row's prevHash rewritten, and its hash recomputed).
      if (last && event.prevHash !== last.hash)
        return refuse(last.sequence, `row ${last.sequence} was changed and rehashed: row ${event.sequence}'s prevHash is not its hash`);
      first ??= event.sequence;
      last = { sequence: event.sequence, hash: event.hash };
      events += 1;
    } else if (value.kind === "checkpoint") {
      const malformed = malformedCheckpoint(value);
      if (malformed) return refuse(next(), malformed);
      const checkpoint = value as unknown as AuditCheckpointLine;
      if (!last || checkpoint.sequence !== last.sequence)
        return refuseCheckpoint(checkpoint.sequence, `it does not follow row ${checkpoint.sequence}`);
      if (checkpoint.tenantId !== tenantId) return refuseCheckpoint(checkpoint.sequence, "it names another tenant");
      if (checkpoint.hash !== last.hash) return refuseCheckpoint(checkpoint.sequence, `its hash is not row ${checkpoint.sequence}'s`);
      if (signaturesChecked) {
        const why = signatureHolds(checkpoint, options.publicKeys);
        if (why) return refuseCheckpoint(checkpoint.sequence, why);
        checkpointsVerified += 1;
        lastGoodCheckpoint = checkpoint.sequence;
      } else {
        checkpointsUnverified += 1;
      }
    } else {
      return refuse(next(), `line ${lineNumber} is neither an event nor a checkpoint`);
    }
  }
  if (!last || first === undefined) return refuse(null, "the log holds no rows");
  if (signaturesChecked && lastGoodCheckpoint === undefined)
    return refuse(first, "no checkpoint in the log: nothing is signed (export up to a checkpoint, or without toSequence)");
  return {
    ok: true,
    lastVerifiedSequence: vouched()!,
    firstSequence: first,
    lastSequence: last.sequence,
    events,
    checkpointsVerified,
    checkpointsUnverified,
    signaturesChecked,
  };
}
