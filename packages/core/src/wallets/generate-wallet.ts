import { takeOldestAvailableSignerKey } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { lockWritableVault } from "../vaults/vault-record";
import type { Actor } from "../audit/actor";
import { inWalletTransaction, insertWallet } from "./insert-wallet";
import type { WalletRecord } from "./wallet-record";

export interface GenerateWalletInput {
  tenantId: string;
  vaultId: string;
  assetIds?: string[];
  label?: string;
  actor: Actor;
}

/**
 * A SIGNER_MANAGED wallet on the oldest signer key the tenant enrolled and no wallet uses yet
 * (409 NO_SIGNER_KEY_AVAILABLE when none is left). `FOR UPDATE SKIP LOCKED` hands concurrent
 * calls different keys without waiting on each other; the unique index on
 * `signer_keys.wallet_id` and on `(tenant, address)` backs it in the database.
 */
export async function generateWallet(deps: Pick<ServiceDeps, "db" | "now">, input: GenerateWalletInput): Promise<WalletRecord> {
  return inWalletTransaction(deps.db, undefined, async (tx) => {
    const vault = await lockWritableVault(tx, input.tenantId, input.vaultId);
    const key = await takeOldestAvailableSignerKey(tx, { tenantId: input.tenantId });
    if (!key) {
      throw new AppError("NO_SIGNER_KEY_AVAILABLE", "no enrolled signer key is left: enroll more with POST /v1/signer/keys");
    }
    return insertWallet(tx, {
      tenantId: input.tenantId,
      vault,
      type: "SIGNER_MANAGED",
      address: key.address,
      publicKey: key.publicKey,
      ownershipProof: key.ownershipProof,
      label: input.label,
      assetIds: input.assetIds,
      actor: input.actor,
      auditAction: "wallet.generated",
      now: deps.now(),
    });
  });
}
