import { keccak_256 } from "@noble/hashes/sha3.js";
import { ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";
import { auditRowHash, type AuditChainFields } from "@qc/core";
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { auditLogLines, verifyAuditLog, type AuditLogVerification } from "../src/index.js";

const TENANT = "0194f2c4-6f1e-7c3a-9b2d-3e4f5a6b7c8d";
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const service = ml_dsa87.keygen(new Uint8Array(32).fill(7));
const other = ml_dsa87.keygen(new Uint8Array(32).fill(9));
const context = new TextEncoder().encode("QUANTUM-AUDIT-v1");

/** A checkpoint signed as the service signs one (ML-DSA-87 over keccak256 of the RFC 8785 JSON), by `key`. */
function checkpoint(sequence: number, hash: string, key = service, keyId = "audit-1") {
  const signed = { tenantId: TENANT, sequence, hash, signedAt: `2026-11-21T10:0${sequence % 10}:00.000Z` };
  const digest = keccak_256(new TextEncoder().encode(canonicalize(signed)!));
  return { kind: "checkpoint", ...signed, keyId, signature: hex(ml_dsa87.sign(digest, key.secretKey, { context })) };
}

/** A chain of `count` rows hashed by the service's own code (@qc/core), with checkpoints after the rows named. */
function exportLines(count: number, checkpointsAt: number[]): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  let prevHash = "0".repeat(64);
  for (let sequence = 1; sequence <= count; sequence++) {
    const fields: AuditChainFields = {
      tenantId: TENANT,
      sequence,
      occurredAt: new Date(Date.UTC(2026, 10, 21, 10, 0, sequence)).toISOString(),
      action: sequence % 2 ? "vault.created" : "api_key.rotated",
      actor: { type: "api_key", id: "qc_key", userId: null, ip: "203.0.113.7", requestId: `req-${sequence}` },
      target: sequence % 3 ? { type: "vault", id: `v-${sequence}` } : null,
      details: { amount: sequence * 1.5, nested: { list: [sequence, "é", null], flag: true } },
      prevHash,
    };
    const hash = auditRowHash(fields);
    lines.push({ kind: "event", id: `0194f2c4-0000-7000-8000-${String(sequence).padStart(12, "0")}`, ...fields, hash });
    if (checkpointsAt.includes(sequence)) lines.push(checkpoint(sequence, hash));
    prevHash = hash;
  }
  return lines;
}

const verify = (lines: Record<string, unknown>[], publicKeys?: string | string[] | Record<string, string>) =>
  verifyAuditLog(
    lines.map((line) => JSON.stringify(line)),
    { publicKeys },
  );
/** A refusal's first bad sequence and reason (an acceptance shows as `ok`, which no expected failure matches). */
const failure = (result: AuditLogVerification) =>
  result.ok ? { firstBadSequence: "ok", reason: "ok" } : { firstBadSequence: result.firstBadSequence, reason: result.reason };
const eventAt = (lines: Record<string, unknown>[], sequence: number) =>
  lines.findIndex((l) => l.kind === "event" && l.sequence === sequence);

describe("verifyAuditLog", () => {
  const log = exportLines(12, [5, 12]);
  const key = hex(service.publicKey);

  it("accepts the service's chain, with the signatures checked against a key, a list or keys by id", async () => {
    expect(await verify(log, key)).toEqual({
      ok: true,
      lastVerifiedSequence: 12,
      firstSequence: 1,
      lastSequence: 12,
      events: 12,
      checkpointsVerified: 2,
      checkpointsUnverified: 0,
      signaturesChecked: true,
    });
    expect(await verify(log, [hex(other.publicKey), `0x${key}`])).toMatchObject({ ok: true, checkpointsVerified: 2 });
    expect(await verify(log, { "audit-1": key })).toMatchObject({ ok: true, lastVerifiedSequence: 12 });
  });

  it("without a key checks the chain and the checkpoints' hashes, and says no signature was checked", async () => {
    expect(await verify(log)).toMatchObject({
      ok: true,
      lastVerifiedSequence: 12,
      checkpointsVerified: 0,
      checkpointsUnverified: 2,
      signaturesChecked: false,
    });
  });

  it("with a key, vouches only up to the last signed checkpoint", async () => {
    const tail = exportLines(12, [5]);
    expect(await verify(tail, key)).toMatchObject({ ok: true, lastVerifiedSequence: 5, lastSequence: 12 });
  });

  it("names a changed row, whether or not its hash was recomputed", async () => {
    const changed = structuredClone(log);
    (changed[eventAt(changed, 7)]!.details as { amount: number }).amount = 1_000_000;
    expect(failure(await verify(changed, key))).toEqual({
      firstBadSequence: 7,
      reason: "row 7 was changed: its hash does not match its content",
    });

    const rehashed = structuredClone(changed);
    const row = rehashed[eventAt(rehashed, 7)]!;
    row.hash = auditRowHash(row as unknown as AuditChainFields);
    expect(failure(await verify(rehashed))).toMatchObject({ firstBadSequence: 7 });
  });

  it("names a removed row and a reordered one", async () => {
    const removed = log.filter((line) => !(line.kind === "event" && line.sequence === 3));
    expect(failure(await verify(removed, key))).toEqual({
      firstBadSequence: 3,
      reason: "row 3 is missing (removed or moved): row 4 follows row 2",
    });

    const reordered = structuredClone(log);
    const [a, b] = [eventAt(reordered, 8), eventAt(reordered, 9)];
    [reordered[a], reordered[b]] = [reordered[b]!, reordered[a]!];
    expect(failure(await verify(reordered, key))).toMatchObject({ firstBadSequence: 8 });
  });

  it("catches a chain rewritten after a changed row at the next checkpoint", async () => {
    // Row 7 changed, and every hash after it recomputed: the chain holds, checkpoint 12 does not.
    const rewritten = structuredClone(log);
    let prevHash: string | undefined;
    for (const line of rewritten) {
      if (line.kind !== "event") continue;
      if (line.sequence === 7) (line.details as { amount: number }).amount = 0;
      if (prevHash !== undefined && (line.sequence as number) >= 8) line.prevHash = prevHash;
      if ((line.sequence as number) >= 7) line.hash = auditRowHash(line as unknown as AuditChainFields);
      prevHash = line.hash as string;
    }
    const result = await verify(rewritten, key);
    expect(result).toMatchObject({ ok: false, firstBadSequence: 6, checkpointSequence: 12, lastVerifiedSequence: 5 });
    expect(failure(result).reason).toBe("the checkpoint at sequence 12 is bad: its hash is not row 12's");
  });

  it("refuses a forged checkpoint, one signed by another key, and one for a key not given", async () => {
    const forged = structuredClone(log);
    const at = forged.findIndex((line) => line.kind === "checkpoint" && line.sequence === 12);
    forged[at] = checkpoint(12, forged[at]!.hash as string, other);
    expect(failure(await verify(forged, key))).toEqual({
      firstBadSequence: 6,
      reason: "the checkpoint at sequence 12 is bad: its signature does not verify with the key(s) given",
    });
    const alteredTime = structuredClone(log);
    alteredTime[at]!.signedAt = "2026-11-21T11:00:00.000Z";
    expect(failure(await verify(alteredTime, key))).toMatchObject({ firstBadSequence: 6 });
    expect(failure(await verify(log, { "audit-0": key }))).toEqual({
      firstBadSequence: 1,
      reason: 'the checkpoint at sequence 5 is bad: it names key "audit-1", which was not given',
    });
    // Without a key, only the hash is checked: a signature swapped for another key's passes, as documented.
    expect(await verify(forged)).toMatchObject({ ok: true, signaturesChecked: false });
  });

  it("refuses an empty log, a log with no checkpoint when a key is given, and a line that is not JSON", async () => {
    expect(await verify([], key)).toMatchObject({ ok: false, reason: "the log holds no rows" });
    expect(await verify(exportLines(3, []), key)).toMatchObject({ ok: false, firstBadSequence: 1 });
    expect(await verifyAuditLog(['{"kind":"event"'])).toMatchObject({ ok: false, reason: "line 1 is not JSON" });
  });

  it("reads a byte stream split anywhere with auditLogLines", async () => {
    const bytes = new TextEncoder().encode(log.map((line) => JSON.stringify(line)).join("\n") + "\n");
    async function* chunks() {
      for (let i = 0; i < bytes.length; i += 7) yield bytes.subarray(i, i + 7);
    }
    expect(await verifyAuditLog(auditLogLines(chunks()), { publicKeys: key })).toMatchObject({ ok: true, lastVerifiedSequence: 12 });
  });
});
