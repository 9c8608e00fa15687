import { addressFromPublicKey, MLDSA87_PUBLIC_KEY_LENGTH } from "@qc/chain";
import { and, eq, inArray, schema, type Database } from "@qc/db";
import { auditCustody, type CustodyActor } from "../vaults/custody-actor";
import { invalidOwnershipProof, ownershipProofFailure } from "../wallets/register-wallet";
import { countSignerKeys, type SignerKeyCounts } from "./count-signer-keys";

export interface EnrollSignerKeysInput {
  tenantId: string;
  /** Each key with its ownership proof (CONTRACT §5) for the address derived from it. */
  keys: { publicKey: string; proof: string }[];
  actor: CustodyActor;
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
export async function enrollSignerKeys(deps: { db: Database }, input: EnrollSignerKeysInput): Promise<EnrollSignerKeysResult> {
  const keys = input.keys.map((key, index) => {
    if (!PUBLIC_KEY_HEX.test(key.publicKey)) throw invalidOwnershipProof("PUBLIC_KEY_FORMAT", { index });
    const publicKey = `0x${key.publicKey.replace(/^0x/, "").toLowerCase()}`;
    const address = addressFromPublicKey(publicKey as `0x${string}`);
    const failure = ownershipProofFailure(input.tenantId, address, publicKey, key.proof);
    if (failure) throw invalidOwnershipProof(failure, { index });
    return { publicKey, address };
  });
  const unique = [...new Map(keys.map((k) => [k.address, k])).values()];
  return deps.db.transaction(async (tx) => {
    const wallets = await tx
      .select({ address: schema.wallets.address })
      .from(schema.wallets)
      .where(and(eq(schema.wallets.tenantId, input.tenantId), inArray(schema.wallets.address, unique.map((k) => k.address))));
    const used = new Set(wallets.map((w) => w.address));
    const fresh = unique.filter((k) => !used.has(k.address));
    const inserted = fresh.length
      ? await tx
          .insert(schema.signerKeys)
          .values(fresh.map((k) => ({ tenantId: input.tenantId, address: k.address, publicKey: k.publicKey })))
          .onConflictDoNothing({ target: [schema.signerKeys.tenantId, schema.signerKeys.address] })
          .returning({ id: schema.signerKeys.id, address: schema.signerKeys.address })
      : [];
    for (const key of inserted) {
      await auditCustody(tx, input.actor, input.tenantId, "signer_key.enrolled", { type: "signer_key", id: key.id }, { address: key.address });
    }
    const counts = await countSignerKeys({ db: tx }, { tenantId: input.tenantId });
    return { enrolled: inserted.length, skipped: input.keys.length - inserted.length, ...counts };
  });
}
