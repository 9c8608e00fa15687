import { randomUUID } from "node:crypto";
import { hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";
import { useTestDatabase } from "@qc/db/testing";
import { describe, expect, it } from "vitest";
import { serviceConfig } from "../deps/service-config";
import { activeAuditSigningKey, auditKeyId, getAuditPublicKey, rotateAuditKey } from "./audit-keys";
import {
  auditCheckpointDigest,
  checkpointAuditChain,
  listAuditCheckpoints,
  verifyAuditCheckpoint,
  type AuditCheckpointRecord,
} from "./checkpoint-audit-chain";
import { recordAuditEvent } from "./record-audit-event";

const bytes = (hex: string) => hexToBytes(hex.replace(/^0x/, ""));

describe("signed audit checkpoints and the audit key (CONTRACT §19)", () => {
  const t = useTestDatabase();
  const config = serviceConfig();
  const deps = () => ({ db: t.db, config, now: () => new Date() });

  const writeRows = async (tenantId: string, count: number) => {
    for (let i = 0; i < count; i += 1)
      await recordAuditEvent(t.db, { action: "vault.created", actorType: "system", tenantId, details: { i } });
  };
  const storedCheckpoints = async (tenantId: string) =>
    (
      await t.pool.query<{ sequence: number; key_id: string }>(
        "select sequence::int as sequence, key_id from audit_checkpoints where tenant_id = $1 order by sequence",
        [tenantId],
      )
    ).rows;

  it("creates the key once when eight processes ask for it at once, sealed at rest, its id derived from the public key", async () => {
    const keys = await Promise.all(Array.from({ length: 8 }, () => activeAuditSigningKey(deps())));
    expect(new Set(keys.map((k) => k.keyId)).size).toBe(1);
    const rows = await t.pool.query<{ key_id: string; public_key: string; secret_key_ciphertext: string; status: string }>(
      "select key_id, public_key, secret_key_ciphertext, status from audit_keys",
    );
    expect(rows.rows).toHaveLength(1);
    const row = rows.rows[0]!;
    expect(row).toMatchObject({ key_id: keys[0]!.keyId, status: "ACTIVE" });
    expect(row.key_id).toMatch(/^qcak_[0-9a-f]{16}$/);
    expect(row.key_id).toBe(auditKeyId(bytes(row.public_key)));
    expect(row.public_key).toMatch(/^0x[0-9a-f]{5184}$/);
    // The secret key is stored only sealed: an envelope of the secret box, not the hex of the key.
    expect(row.secret_key_ciphertext).toMatch(/^v1\./);
    const secretHex = Buffer.from(keys[0]!.secretKey).toString("hex");
    expect(row.secret_key_ciphertext).not.toContain(secretHex.slice(0, 64));
    expect(await getAuditPublicKey(deps())).toEqual({ keyId: row.key_id, publicKey: row.public_key });
  });

  it("signs the sealed head: the signature verifies with ML-DSA-87 and its context, an altered checkpoint does not", async () => {
    const tenantId = randomUUID();
    expect(await checkpointAuditChain(deps(), tenantId)).toBeNull(); // no rows yet: nothing to sign
    await writeRows(tenantId, 3);
    const checkpoint = (await checkpointAuditChain(deps(), tenantId))!;
    const head = await t.pool.query<{ hash: string }>("select hash from audit_events where tenant_id = $1 and sequence = 3", [tenantId]);
    expect(checkpoint).toMatchObject({ tenantId, sequence: 3, hash: head.rows[0]!.hash });
    expect(checkpoint.signedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(checkpoint.signature).toMatch(/^0x[0-9a-f]{9254}$/);
    const { publicKey, keyId } = await getAuditPublicKey(deps());
    expect(checkpoint.keyId).toBe(keyId);

    const context = utf8ToBytes("QUANTUM-AUDIT-v1");
    const digest = auditCheckpointDigest(checkpoint);
    expect(ml_dsa87.verify(bytes(checkpoint.signature), digest, bytes(publicKey), { context })).toBe(true);
    expect(ml_dsa87.verify(bytes(checkpoint.signature), digest, bytes(publicKey))).toBe(false); // the context is bound
    expect(verifyAuditCheckpoint(checkpoint, publicKey)).toBe(true);
    const forgeries: AuditCheckpointRecord[] = [
      { ...checkpoint, sequence: 2 },
      { ...checkpoint, hash: "0".repeat(64) },
      { ...checkpoint, tenantId: randomUUID() },
      { ...checkpoint, signedAt: new Date(Date.parse(checkpoint.signedAt) + 1).toISOString() },
      { ...checkpoint, signature: `0x${"00".repeat(4627)}` },
    ];
    for (const forged of forgeries) expect(verifyAuditCheckpoint(forged, publicKey)).toBe(false);

    // Nothing new: no new checkpoint, the stored one is returned as stored.
    expect(await checkpointAuditChain(deps(), tenantId)).toEqual(checkpoint);
    expect(await listAuditCheckpoints(t.db, { tenantId, fromSequence: 1, toSequence: 3 })).toEqual([checkpoint]);
    await expect(t.pool.query("update audit_checkpoints set hash = 'x' where tenant_id = $1", [tenantId])).rejects.toThrow(/append-only/);
  });

  it("ten checkpointers at once store one checkpoint per sequence, and all return it", async () => {
    const tenantId = randomUUID();
    await writeRows(tenantId, 5);
    const first = await Promise.all(Array.from({ length: 10 }, () => checkpointAuditChain(deps(), tenantId)));
    expect(new Set(first.map((c) => `${c!.sequence}:${c!.signature}`)).size).toBe(1);
    expect(first[0]!.sequence).toBe(5);
    await writeRows(tenantId, 2);
    const second = await Promise.all(Array.from({ length: 10 }, () => checkpointAuditChain(deps(), tenantId)));
    expect(new Set(second.map((c) => c!.signature)).size).toBe(1);
    expect((await storedCheckpoints(tenantId)).map((c) => c.sequence)).toEqual([5, 7]);
    const listed = await listAuditCheckpoints(t.db, { tenantId, fromSequence: 6, toSequence: 7 });
    expect(listed).toEqual([second[0]]);
  });

  it("a rotation retires the key; checkpoints it signed stay verifiable by ?keyId, new ones name the new key", async () => {
    const tenantId = randomUUID();
    await writeRows(tenantId, 1);
    const before = (await checkpointAuditChain(deps(), tenantId))!;
    const rotated = await rotateAuditKey(deps());
    expect(rotated.retiredKeyId).toBe(before.keyId);
    expect(rotated.keyId).not.toBe(before.keyId);
    await writeRows(tenantId, 1);
    const after = (await checkpointAuditChain(deps(), tenantId))!;
    expect(after).toMatchObject({ sequence: 2, keyId: rotated.keyId });

    const active = await getAuditPublicKey(deps());
    expect(active).toEqual({ keyId: rotated.keyId, publicKey: rotated.publicKey });
    const retired = await getAuditPublicKey(deps(), { keyId: before.keyId });
    expect(verifyAuditCheckpoint(before, retired.publicKey)).toBe(true);
    expect(verifyAuditCheckpoint(before, active.publicKey)).toBe(false);
    expect(verifyAuditCheckpoint(after, active.publicKey)).toBe(true);
    const statuses = await t.pool.query<{ key_id: string; status: string; retired: boolean }>(
      "select key_id, status, retired_at is not null as retired from audit_keys order by created_at",
    );
    expect(statuses.rows).toEqual([
      { key_id: before.keyId, status: "RETIRED", retired: true },
      { key_id: rotated.keyId, status: "ACTIVE", retired: false },
    ]);
    await expect(getAuditPublicKey(deps(), { keyId: "qcak_0000000000000000" })).rejects.toMatchObject({ error: "NOT_FOUND", status: 404 });
  });
});
