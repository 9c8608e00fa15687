import { parseAddress } from "@qc/chain";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { lockWritableVault } from "../vaults/vault-record";
import type { Actor } from "../audit/actor";
import { inWalletTransaction, insertWallet } from "./insert-wallet";
import type { WalletRecord } from "./wallet-record";

export interface CreateWatchOnlyWalletInput {
  tenantId: string;
  vaultId: string;
  address: string;
  assetIds?: string[];
  label?: string;
  actor: Actor;
}

/** A monitored address without a key: readable, never a transaction source. */
export async function createWatchOnlyWallet(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: CreateWatchOnlyWalletInput,
): Promise<WalletRecord> {
  let address: string;
  try {
    address = parseAddress(input.address);
  } catch {
    throw new AppError("VALIDATION_FAILED", "address is not a valid address", {
      details: { fields: [{ path: "address", message: "40 hex digits with optional 0x; mixed case must pass EIP-55" }] },
    });
  }
  return inWalletTransaction(deps.db, address, async (tx) => {
    const vault = await lockWritableVault(tx, input.tenantId, input.vaultId);
    return insertWallet(tx, {
      tenantId: input.tenantId,
      vault,
      type: "WATCH_ONLY",
      address,
      publicKey: null,
      label: input.label,
      assetIds: input.assetIds,
      actor: input.actor,
      auditAction: "wallet.watch_only_added",
      now: deps.now(),
    });
  });
}
