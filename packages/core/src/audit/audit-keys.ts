import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";
import type { Database, Executor } from "@qc/db";
import {
  findActiveAuditKey,
  findAuditKeyByKeyId,
  insertActiveAuditKeyIfNone,
  retireActiveAuditKey,
  type AuditKeyRow,
} from "@qc/db/queries";
import type { SecretBox } from "@qc/webhooks";
import type { ServiceConfig } from "../deps/service-config";
import { AppError } from "../errors";
import { webhookSecretBox } from "../webhooks/webhook-secrets";

/** What the audit key's services need: the database and the configuration its secret box is built from. */
export interface AuditKeyDeps {
  db: Database;
  config: Pick<ServiceConfig, "webhooks">;
}

/** The service's audit key as anyone may see it: the public key (lower-case hex with `0x`) and its id. */
export interface AuditPublicKey {
  publicKey: string;
  keyId: string;
}

/** The ACTIVE audit key with its secret key opened, for signing a checkpoint. */
export interface AuditSigningKey extends AuditPublicKey {
  secretKey: Uint8Array;
}

/**
 * An audit key's id: `qcak_` + the first 16 hex digits of SHA-256 of the public key's bytes. It
 * names the key in every checkpoint, is derived (so it cannot be pointed at another key), and
 * anyone holding the public key can recompute it.
 */
export function auditKeyId(publicKey: Uint8Array): string {
  return `qcak_${bytesToHex(sha256(publicKey)).slice(0, 16)}`;
}

/** The associated data of a sealed audit secret key: its key id, so a ciphertext moved to another row does not open. */
const auditKeySlot = (keyId: string) => `audit_key:${keyId}`;

const secretBox = (deps: Pick<AuditKeyDeps, "config">): SecretBox => webhookSecretBox(deps.config.webhooks);

/** A fresh ML-DSA-87 key pair as stored: public key in hex with `0x`, secret key sealed with the service's secret box. */
function newAuditKey(box: SecretBox): { keyId: string; publicKey: string; secretKeyCiphertext: string } {
  const pair = ml_dsa87.keygen();
  const keyId = auditKeyId(pair.publicKey);
  return {
    keyId,
    publicKey: `0x${bytesToHex(pair.publicKey)}`,
    secretKeyCiphertext: box.seal(bytesToHex(pair.secretKey), auditKeySlot(keyId)),
  };
}

/**
 * The ACTIVE audit key's row, created on first use. Two processes creating it at once both
 * insert with `on conflict do nothing` on the one-ACTIVE index and then read: both get the same
 * key, one of them made.
 */
async function activeAuditKeyRow(deps: AuditKeyDeps): Promise<AuditKeyRow> {
  let row = await findActiveAuditKey(deps.db);
  if (!row) {
    await insertActiveAuditKeyIfNone(deps.db, newAuditKey(secretBox(deps)));
    row = await findActiveAuditKey(deps.db);
  }
  // A rotation between the insert and the read leaves another ACTIVE key, never none.
  if (!row) throw new Error("no ACTIVE audit key after creating one");
  return row;
}

/** The ACTIVE audit key (ML-DSA-87), created on first use, its secret key opened: it never leaves the process. */
export async function activeAuditSigningKey(deps: AuditKeyDeps): Promise<AuditSigningKey> {
  return openAuditKey(deps, await activeAuditKeyRow(deps));
}

function openAuditKey(deps: Pick<AuditKeyDeps, "config">, row: AuditKeyRow): AuditSigningKey {
  const secretKey = hexToBytes(secretBox(deps).open(row.secretKeyCiphertext, auditKeySlot(row.keyId)));
  return { keyId: row.keyId, publicKey: row.publicKey, secretKey };
}

/**
 * `GET /v1/audit/public-key`: the ACTIVE key (created on first use), or with `keyId` that key
 * whatever its status, so checkpoints signed before a rotation stay verifiable. An unknown key
 * id is 404 NOT_FOUND.
 */
export async function getAuditPublicKey(deps: AuditKeyDeps, input: { keyId?: string } = {}): Promise<AuditPublicKey> {
  if (input.keyId === undefined) {
    // Only the public half: the sealed secret key is not opened for a read.
    const { keyId, publicKey } = await activeAuditKeyRow(deps);
    return { keyId, publicKey };
  }
  const row = await findAuditKeyByKeyId(deps.db, input.keyId);
  if (!row) throw new AppError("NOT_FOUND", "no audit key has this key id", { details: { keyId: input.keyId } });
  return { keyId: row.keyId, publicKey: row.publicKey };
}

/**
 * Rotates the audit key (docs/decisions): in one transaction the ACTIVE key becomes RETIRED
 * (with `retired_at`) and a fresh key becomes ACTIVE; checkpoints signed from then on name the new
 * key, older ones keep naming the retired key, which `GET /v1/audit/public-key?keyId=` still
 * serves. Returns the new key and the retired key's id (none when there was no key yet).
 */
export async function rotateAuditKey(deps: AuditKeyDeps): Promise<AuditPublicKey & { retiredKeyId: string | null }> {
  const box = secretBox(deps);
  return deps.db.transaction(async (tx: Executor) => {
    const retiredKeyId = (await retireActiveAuditKey(tx)) ?? null;
    const key = newAuditKey(box);
    // Two rotations at once: the second's retire waits on the first's row lock and then finds
    // that row RETIRED, so its insert meets the first's new key: it fails (and may be run again)
    // rather than leave two keys ACTIVE.
    if (!(await insertActiveAuditKeyIfNone(tx, key))) throw new Error("another audit key became ACTIVE during the rotation");
    return { keyId: key.keyId, publicKey: key.publicKey, retiredKeyId };
  });
}
