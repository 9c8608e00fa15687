import { addressFromPublicKey, MLDSA87_PUBLIC_KEY_LENGTH } from "@qc/chain";
import { insertSignerKeys, listTakenWalletAddresses } from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { invalidOwnershipProof, ownershipProofFailure } from "../wallets/register-wallet";
import { readSignerKeyCounts, type SignerKeyCounts } from "./count-signer-keys";

export interface EnrollSignerKeysInput {
  tenantId: string;
  /** Each key with its ownership proof (CONTRACT §5) for the address derived from it. */
  keys: { publicKey: string; proof: string }[];
  actor: Actor;
}

export interface EnrollSignerKeysResult extends SignerKeyCounts {
  /** Keys added to the pool by this request. */
  enrolled: number;
  /** Keys of the batch already enrolled, or whose address already is a wallet of the tenant. */
  skipped: number;
}

const PUBLIC_KEY_HEX = new RegExp(`^(0x)?[0-9a-fA-F]{${MLDSA87_PUBLIC_KEY_LENGTH * 2}}$`);

/**
 * Adds public keys the tenant's signer generated to the pool `wallets/generate` draws from.
 * All or nothing: every proof is verified first, and the first invalid one fails the batch with
 * 400 INVALID_OWNERSHIP_PROOF and its `index`. Enrolling a key twice is harmless (skipped).
 */
export async function enrollSignerKeys(
  deps: Pick<ServiceDeps, "db" | "now" | "verifier">,
  input: EnrollSignerKeysInput,
): Promise<EnrollSignerKeysResult> {
  // The proofs of the keys before the first malformed one are verified together on the
  // verifier's threads; the lowest failing index still wins, as if checked one by one.
  const malformed = input.keys.findIndex((key) => !PUBLIC_KEY_HEX.test(key.publicKey));
  const keys = input.keys.slice(0, malformed < 0 ? undefined : malformed).map((key) => {
    const publicKey = `0x${key.publicKey.replace(/^0x/, "").toLowerCase()}`;
    return { publicKey, address: addressFromPublicKey(publicKey as `0x${string}`), proof: key.proof };
  });
  const failures = await Promise.all(
    keys.map((key) => ownershipProofFailure(deps.verifier, input.tenantId, key.address, key.publicKey, key.proof)),
  );
  const index = failures.findIndex((failure) => failure !== null);
  if (index >= 0) throw invalidOwnershipProof(failures[index]!, { index });
  if (malformed >= 0) throw invalidOwnershipProof("PUBLIC_KEY_FORMAT", { index: malformed });
  // Verified: kept in canonical form with the key, for the evidence of the wallet's transfers (CONTRACT §19).
  const proven = keys.map((key) => ({ ...key, ownershipProof: `0x${key.proof.replace(/^0x/, "").toLowerCase()}` }));
  const unique = [...new Map(proven.map((k) => [k.address, k])).values()];
  return deps.db.transaction(async (tx) => {
    const used = new Set(await listTakenWalletAddresses(tx, { tenantId: input.tenantId, addresses: unique.map((k) => k.address) }));
    const fresh = unique.filter((k) => !used.has(k.address));
    const inserted = await insertSignerKeys(tx, { tenantId: input.tenantId, keys: fresh, createdAt: deps.now() });
    for (const key of inserted) {
      await auditAction(tx, input.actor, {
        tenantId: input.tenantId,
        action: "signer_key.enrolled",
        target: { type: "signer_key", id: key.id },
        details: { address: key.address },
      });
    }
    const counts = await readSignerKeyCounts(tx, input.tenantId);
    return { enrolled: inserted.length, skipped: input.keys.length - inserted.length, ...counts };
  });
}
