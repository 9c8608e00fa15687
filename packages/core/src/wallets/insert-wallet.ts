import { isUniqueViolation, type Database, type Executor } from "@qc/db";
import { assignSignerKey, insertNetworkLink, insertWalletRow, walletAddressTaken, type VaultRow } from "@qc/db/queries";
import { nativeAssetId } from "../assets/native-assets";
import { resolveWalletAssetIds } from "../assets/asset-record";
import { AppError } from "../errors";
import { emitEvent } from "../events/emit-event";
import { auditAction, type Actor } from "../audit/actor";
import { toWalletRecord, type WalletRecord, type WalletType } from "./wallet-record";

export interface NewWallet {
  tenantId: string;
  vault: VaultRow;
  type: WalletType;
  address: string;
  publicKey: string | null;
  /** The ownership proof of `publicKey` (lower-case 0x hex), kept for transfer evidence (CONTRACT §19); null when none is known. */
  ownershipProof?: string | null | undefined;
  label?: string | undefined;
  /** Omitted: the native asset of the vault's network. */
  assetIds?: string[] | undefined;
  actor: Actor;
  auditAction: "wallet.generated" | "wallet.registered" | "wallet.watch_only_added";
  /** The service's clock reading: the wallet's createdAt. */
  now: Date;
}

/**
 * Inserts a wallet, its home placement, its audit row and the `wallet.created` event in the
 * caller's transaction. An enrolled signer key with the same address leaves the pool (it is
 * this wallet's key now). The address must be canonical already.
 */
export async function insertWallet(tx: Executor, wallet: NewWallet): Promise<WalletRecord> {
  const networkCode = wallet.vault.networkCode;
  const assetIds = await resolveWalletAssetIds(tx, wallet.tenantId, networkCode, wallet.assetIds ?? [nativeAssetId(networkCode)]);
  if (await walletAddressTaken(tx, { tenantId: wallet.tenantId, address: wallet.address })) throw addressTaken(wallet.address);
  const row = await insertWalletRow(tx, {
    tenantId: wallet.tenantId,
    vaultId: wallet.vault.id,
    type: wallet.type,
    address: wallet.address,
    publicKey: wallet.publicKey,
    ownershipProof: wallet.ownershipProof ?? null,
    label: wallet.label ?? null,
    assetIds,
    createdAt: wallet.now,
    updatedAt: wallet.now,
  });
  const link = { networkCode, vaultId: wallet.vault.id };
  await insertNetworkLink(tx, { tenantId: wallet.tenantId, walletId: row.id, ...link, createdAt: wallet.now });
  await assignSignerKey(tx, { tenantId: wallet.tenantId, address: wallet.address, walletId: row.id, assignedAt: row.createdAt });
  const record = toWalletRecord(row, [link]);
  await auditAction(tx, wallet.actor, {
    tenantId: wallet.tenantId,
    action: wallet.auditAction,
    target: { type: "wallet", id: row.id },
    details: {
      vaultId: wallet.vault.id,
      address: wallet.address,
      type: wallet.type,
    },
  });
  await emitEvent(tx, { tenantId: wallet.tenantId, type: "wallet.created", aggregateId: record.id, data: { wallet: record } });
  return record;
}

function addressTaken(address: string): AppError {
  return new AppError("ADDRESS_ALREADY_REGISTERED", `${address} is already a wallet of this tenant`, { details: { address } });
}

/** Runs a wallet-creating transaction; a concurrent insert of the same address becomes 409. */
export async function inWalletTransaction<T>(db: Database, address: string | undefined, fn: (tx: Executor) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(fn);
  } catch (error) {
    if (isUniqueViolation(error, "wallets_tenant_address_unique")) throw addressTaken(address ?? "the address");
    throw error;
  }
}
