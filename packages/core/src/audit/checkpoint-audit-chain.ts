import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";
import type { Executor } from "@qc/db";
import {
  findLatestAuditCheckpoint,
  insertAuditCheckpoint,
  listTenantAuditCheckpoints,
  listTenantsWithUncheckpointedAuditHeads,
  listTenantsWithUnsealedAuditEvents,
  readAuditChainHead,
  type AuditCheckpointRow,
} from "@qc/db/queries";
import canonicalize from "canonicalize";
import type { Logger } from "../logger";
import { activeAuditSigningKey, type AuditKeyDeps } from "./audit-keys";
import { sealAuditChain } from "./seal-audit-chain";

/** The ML-DSA-87 context of every checkpoint signature (CONTRACT §19), as utf-8 bytes. */
export const AUDIT_CHECKPOINT_CONTEXT = utf8ToBytes("QUANTUM-AUDIT-v1");

/** What a checkpoint signs: the tenant's chain head at `sequence` and when it was signed (RFC 3339, ms, UTC). */
export interface AuditCheckpoint {
  tenantId: string;
  sequence: number;
  hash: string;
  signedAt: string;
}

/** A stored checkpoint: what was signed, the signing key's id and the ML-DSA-87 signature (lower-case hex with `0x`). */
export interface AuditCheckpointRecord extends AuditCheckpoint {
  keyId: string;
  signature: string;
}

/** What the checkpointer needs: the database, the clock and the configuration the audit key's secret box comes from. */
export interface CheckpointAuditChainDeps extends AuditKeyDeps {
  now(): Date;
}

/**
 * The bytes a checkpoint's signature covers: keccak256 of the RFC 8785 JSON of exactly
 * `{tenantId, sequence, hash, signedAt}` (whatever else `checkpoint` carries).
 */
export function auditCheckpointDigest(checkpoint: AuditCheckpoint): Uint8Array {
  const { tenantId, sequence, hash, signedAt } = checkpoint;
  const json = canonicalize({ tenantId, sequence, hash, signedAt });
  if (json === undefined) throw new Error("an audit checkpoint has no canonical JSON");
  return keccak_256(utf8ToBytes(json));
}

/** True when `record.signature` is the ML-DSA-87 signature (context QUANTUM-AUDIT-v1) of its checkpoint by `publicKey` (hex, `0x` optional). */
export function verifyAuditCheckpoint(record: AuditCheckpointRecord, publicKey: string): boolean {
  try {
    return ml_dsa87.verify(hex(record.signature), auditCheckpointDigest(record), hex(publicKey), { context: AUDIT_CHECKPOINT_CONTEXT });
  } catch {
    return false;
  }
}

const hex = (value: string) => hexToBytes(value.replace(/^0x/i, "").toLowerCase());

const toRecord = (row: AuditCheckpointRow): AuditCheckpointRecord => ({
  tenantId: row.tenantId,
  sequence: row.sequence,
  hash: row.hash,
  signedAt: row.signedAt.toISOString(),
  keyId: row.keyId,
  signature: row.signature,
});

/**
 * Seals the tenant's chain (sealAuditChain) and, when its head is beyond the last checkpoint,
 * signs the head with the ACTIVE audit key (CONTRACT §19) and stores the checkpoint. Returns the
 * tenant's newest checkpoint (this one, or the one already covering the head), null when the
 * tenant has no audit row yet. Two checkpointers at once may both sign the same head: the unique
 * (tenant_id, sequence) index keeps the first, the other stores nothing and returns the stored one.
 */
export async function checkpointAuditChain(deps: CheckpointAuditChainDeps, tenantId: string): Promise<AuditCheckpointRecord | null> {
  await sealAuditChain(deps.db, tenantId);
  const head = await readAuditChainHead(deps.db, tenantId);
  if (head.sequence === 0) return null;
  const last = await findLatestAuditCheckpoint(deps.db, tenantId);
  if (last && last.sequence >= head.sequence) return toRecord(last);
  const key = await activeAuditSigningKey(deps);
  const signedAt = new Date(deps.now().getTime());
  const checkpoint: AuditCheckpoint = { tenantId, sequence: head.sequence, hash: head.hash, signedAt: signedAt.toISOString() };
  const signature = `0x${bytesToHex(ml_dsa87.sign(auditCheckpointDigest(checkpoint), key.secretKey, { context: AUDIT_CHECKPOINT_CONTEXT }))}`;
  const record: AuditCheckpointRecord = { ...checkpoint, keyId: key.keyId, signature };
  if (await insertAuditCheckpoint(deps.db, { ...record, signedAt })) return record;
  const stored = await findLatestAuditCheckpoint(deps.db, tenantId);
  if (!stored) throw new Error(`the audit checkpoint of ${tenantId} at ${head.sequence} vanished`);
  return toRecord(stored);
}

/** The tenant's signed checkpoints from `fromSequence` to `toSequence` (both included), in sequence order (for the export). */
export async function listAuditCheckpoints(
  db: Executor,
  params: { tenantId: string; fromSequence: number; toSequence: number },
): Promise<AuditCheckpointRecord[]> {
  const rows = await listTenantAuditCheckpoints(db, params);
  return rows.map(toRecord);
}

/** Tenants looked at per sweep, of each kind (with unsealed rows; with a head beyond its checkpoint). */
const SWEEP_TENANTS = 1000;

/**
 * One sweep of the checkpointer (the daemon runs it every AUDIT_CHECKPOINT_SECONDS): every tenant
 * with unsealed rows is sealed and every tenant whose head is beyond its last checkpoint gets a
 * signed one (checkpointAuditChain). A tenant that fails is logged and left for the next sweep;
 * the others go on. Two daemons sweeping at once wait on each tenant's head lock and store one
 * checkpoint per sequence. Returns how many tenants were looked at and how many failed.
 */
export async function checkpointAuditChains(
  deps: CheckpointAuditChainDeps & { log: Logger },
): Promise<{ tenants: number; failed: number }> {
  const tenants = new Set([
    ...(await listTenantsWithUnsealedAuditEvents(deps.db, SWEEP_TENANTS)),
    ...(await listTenantsWithUncheckpointedAuditHeads(deps.db, SWEEP_TENANTS)),
  ]);
  let failed = 0;
  for (const tenantId of tenants) {
    try {
      await checkpointAuditChain(deps, tenantId);
    } catch (err) {
      failed += 1;
      deps.log.error({ err, tenantId }, "audit checkpoint failed: retried at the next sweep");
    }
  }
  return { tenants: tenants.size, failed };
}
