import { signOwnershipProof } from "@qc/chain";
import type { Address } from "viem";
import { SignerError } from "./errors";
import type { StoredKey } from "./keystore/format";
import type { UnlockedKeystore } from "./keystore/keystore";
import { keyFromSeed, secretKeyOf } from "./keystore/signer-key";
import { isDefiniteRefusal } from "./service/outcome";
import type { SignerApi } from "./service/signer-api";

/** The service takes at most 50 keys per request; 25 keeps a request well under 1 MB. */
export const ENROLL_BATCH_SIZE = 25;
export const MAX_ENROLL_COUNT = 1000;

export type EnrollKeysParameters = {
  keystore: UnlockedKeystore;
  api: SignerApi;
  tenantId: string;
  /** New keys to generate (0: only finish keys left pending by an interrupted run). */
  count: number;
  onProgress?: (progress: { accepted: number; total: number }) => void;
  batchSize?: number;
};

export type EnrollKeysResult = {
  /** Keys the service accepted in this run (including ones it already had). */
  accepted: Address[];
  /** Of those, keys left pending by an earlier, interrupted run. */
  resumed: number;
  /** Counts after the last batch, as the service reports them. */
  available: number | null;
  assigned: number | null;
};

/**
 * Generates `count` keys and enrolls them for `wallets/generate` (CONTRACT §4), with an
 * ownership proof each. The order makes orphans impossible on either side:
 *
 * 1. the new keys are written to the keystore first, as PENDING_ENROLLMENT, so the service
 *    never holds a public key whose secret is not on this disk;
 * 2. each batch is marked ENROLLED only after the service answered 201;
 * 3. when the service refuses (4xx), the keys it refused and the ones never sent are removed
 *    again; when the outcome is unknown (network, 5xx) the keys of that batch stay pending,
 *    and the next run re-sends them first (the service skips keys it already has).
 */
export async function enrollKeys(params: EnrollKeysParameters): Promise<EnrollKeysResult> {
  const { keystore, api, tenantId, count } = params;
  const batchSize = params.batchSize ?? ENROLL_BATCH_SIZE;
  if (!Number.isInteger(count) || count < 0 || count > MAX_ENROLL_COUNT) {
    throw new SignerError(`the key count must be an integer from 0 to ${MAX_ENROLL_COUNT}`);
  }

  const resumed = keystore.keys.filter((key) => key.status === "PENDING_ENROLLMENT" && key.tenantId === tenantId);
  const now = new Date().toISOString();
  const fresh: StoredKey[] = Array.from({ length: count }, () => {
    const material = keyFromSeed();
    return {
      ...material,
      origin: "GENERATED",
      status: "PENDING_ENROLLMENT",
      tenantId,
      createdAt: now,
      acceptedAt: null,
      vaultId: null,
      walletId: null,
      label: null,
    };
  });
  if (fresh.length > 0) await keystore.update((contents) => void contents.keys.push(...fresh));

  const queue = [...resumed, ...fresh];
  const freshAddresses = new Set(fresh.map((key) => key.address));
  const accepted: Address[] = [];
  let counts: { available: number; assigned: number } | null = null;
  params.onProgress?.({ accepted: 0, total: queue.length });

  for (let start = 0; start < queue.length; start += batchSize) {
    const batch = queue.slice(start, start + batchSize);
    try {
      const answer = await api.enrollKeys(batch.map((key) => ({ publicKey: key.publicKey, proof: proofOf(key, tenantId) })));
      counts = { available: answer.available, assigned: answer.assigned };
    } catch (error) {
      // Keys never sent, and keys the service certainly refused, go; the rest stay pending.
      const refused = isDefiniteRefusal(error);
      const removable = new Set(
        queue
          .slice(start)
          .filter((key, i) => freshAddresses.has(key.address) && (refused || i >= batch.length))
          .map((key) => key.address),
      );
      if (removable.size > 0) {
        await keystore.update((contents) => {
          contents.keys = contents.keys.filter((key) => !removable.has(key.address as Address));
        });
      }
      const pending = keystore.keys.filter((key) => key.status === "PENDING_ENROLLMENT" && key.tenantId === tenantId).length;
      const summary = `enrolled ${accepted.length} of ${queue.length} keys`;
      const left =
        pending > 0
          ? `; ${pending} key(s) whose upload may have reached the service are kept as PENDING_ENROLLMENT and are sent again by the next \`signer enroll\``
          : "";
      throw new SignerError(`${summary}: ${(error as Error).message}${left}`, { cause: error });
    }
    const batchAddresses = new Set(batch.map((key) => key.address));
    const acceptedAt = new Date().toISOString();
    await keystore.update((contents) => {
      for (const key of contents.keys) {
        if (batchAddresses.has(key.address) && key.status === "PENDING_ENROLLMENT") {
          key.status = "ENROLLED";
          key.acceptedAt = acceptedAt;
        }
      }
    });
    accepted.push(...batch.map((key) => key.address as Address));
    params.onProgress?.({ accepted: accepted.length, total: queue.length });
  }

  return { accepted, resumed: resumed.length, available: counts?.available ?? null, assigned: counts?.assigned ?? null };
}

function proofOf(key: StoredKey, tenantId: string): string {
  const secretKey = secretKeyOf(key);
  try {
    return signOwnershipProof({ tenantId, address: key.address, secretKey });
  } finally {
    secretKey.fill(0);
  }
}
