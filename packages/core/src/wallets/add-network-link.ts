import type { NetworkCode } from "@qc/chain";
import { isUniqueViolation } from "@qc/db";
import { findNetworkLink, insertNetworkLink } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { auditAction, type Actor } from "../audit/actor";
import { lockWritableVault } from "../vaults/vault-record";
import { findWallet, toWalletRecordOf, type WalletRecord } from "./wallet-record";

export interface AddNetworkLinkInput {
  tenantId: string;
  walletId: string;
  networkCode: NetworkCode;
  vaultId: string;
  actor: Actor;
}

/**
 * Places a wallet in a vault of another network (the same key controls the same address on
 * every QUANTUM network). At most one vault per network: the same placement again is a no-op
 * (`created: false`), another vault on a placed network is 409 CONFLICT. The vault must be on
 * `networkCode` (400 NETWORK_MISMATCH) and active (409 VAULT_ARCHIVED).
 */
export async function addNetworkLink(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: AddNetworkLinkInput,
): Promise<{ wallet: WalletRecord; created: boolean }> {
  try {
    return await deps.db.transaction(async (tx) => {
      const wallet = await findWallet(tx, input.tenantId, input.walletId, "update");
      const vault = await lockWritableVault(tx, input.tenantId, input.vaultId);
      if (vault.networkCode !== input.networkCode) {
        throw new AppError("NETWORK_MISMATCH", `vault ${vault.id} is on ${vault.networkCode}, not ${input.networkCode}`, {
          details: { vaultId: vault.id, vaultNetworkCode: vault.networkCode, networkCode: input.networkCode },
        });
      }
      const existing = await findNetworkLink(tx, { tenantId: input.tenantId, walletId: wallet.id, networkCode: input.networkCode });
      if (existing) {
        if (existing.vaultId === vault.id) return { wallet: await toWalletRecordOf(tx, wallet), created: false };
        throw placedElsewhere(input.networkCode, existing.vaultId);
      }
      if (wallet.status === "ARCHIVED")
        throw new AppError("WALLET_ARCHIVED", "the wallet is archived", { details: { walletId: wallet.id } });
      await insertNetworkLink(tx, {
        tenantId: input.tenantId,
        walletId: wallet.id,
        networkCode: input.networkCode,
        vaultId: vault.id,
        createdAt: deps.now(),
      });
      await auditAction(tx, input.actor, {
        tenantId: input.tenantId,
        action: "wallet.network_linked",
        target: { type: "wallet", id: wallet.id },
        details: {
          networkCode: input.networkCode,
          vaultId: vault.id,
        },
      });
      return { wallet: await toWalletRecordOf(tx, wallet), created: true };
    });
  } catch (error) {
    if (isUniqueViolation(error, "wallet_network_links_wallet_network_unique")) throw placedElsewhere(input.networkCode);
    throw error;
  }
}

function placedElsewhere(networkCode: NetworkCode, vaultId?: string): AppError {
  return new AppError("CONFLICT", `the wallet is already placed in another vault on ${networkCode}`, {
    details: { networkCode, ...(vaultId ? { vaultId } : {}) },
  });
}
