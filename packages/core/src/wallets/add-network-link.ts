import type { NetworkCode } from "@qc/chain";
import { and, eq, schema, type Database } from "@qc/db";
import { AppError } from "../errors";
import { auditCustody, violatesUniqueConstraint, type CustodyActor } from "../vaults/custody-actor";
import { lockWritableVault } from "../vaults/vault-record";
import { findWallet, toWalletRecordOf, type WalletRecord } from "./wallet-record";

export interface AddNetworkLinkInput {
  tenantId: string;
  walletId: string;
  networkCode: NetworkCode;
  vaultId: string;
  actor: CustodyActor;
}

/**
 * Places a wallet in a vault of another network (the same key controls the same address on
 * every QUANTUM network). At most one vault per network: the same placement again is a no-op
 * (`created: false`), another vault on a placed network is 409 CONFLICT. The vault must be on
 * `networkCode` (400 NETWORK_MISMATCH) and active (409 VAULT_ARCHIVED).
 */
export async function addNetworkLink(
  deps: { db: Database },
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
      const [existing] = await tx
        .select()
        .from(schema.walletNetworkLinks)
        .where(and(eq(schema.walletNetworkLinks.walletId, wallet.id), eq(schema.walletNetworkLinks.networkCode, input.networkCode)));
      if (existing) {
        if (existing.vaultId === vault.id) return { wallet: await toWalletRecordOf(tx, wallet), created: false };
        throw placedElsewhere(input.networkCode, existing.vaultId);
      }
      if (wallet.status === "ARCHIVED") throw new AppError("WALLET_ARCHIVED", "the wallet is archived", { details: { walletId: wallet.id } });
      await tx.insert(schema.walletNetworkLinks).values({ tenantId: input.tenantId, walletId: wallet.id, networkCode: input.networkCode, vaultId: vault.id });
      await auditCustody(tx, input.actor, input.tenantId, "wallet.network_linked", { type: "wallet", id: wallet.id }, {
        networkCode: input.networkCode,
        vaultId: vault.id,
      });
      return { wallet: await toWalletRecordOf(tx, wallet), created: true };
    });
  } catch (error) {
    if (violatesUniqueConstraint(error, "wallet_network_links_wallet_network_unique")) throw placedElsewhere(input.networkCode);
    throw error;
  }
}

function placedElsewhere(networkCode: NetworkCode, vaultId?: string): AppError {
  return new AppError("CONFLICT", `the wallet is already placed in another vault on ${networkCode}`, {
    details: { networkCode, ...(vaultId ? { vaultId } : {}) },
  });
}
