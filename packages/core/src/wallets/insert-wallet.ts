import { and, eq, isNull, schema, type Database, type Executor } from "@qc/db";
import { nativeAssetId } from "../assets/native-assets";
import { resolveWalletAssetIds } from "../assets/asset-record";
import { AppError } from "../errors";
import { emitEvent } from "../events/emit-event";
import { auditCustody, violatesUniqueConstraint, type CustodyActor } from "../vaults/custody-actor";
import { toWalletRecord, type WalletRecord, type WalletType } from "./wallet-record";

type VaultRow = typeof schema.vaults.$inferSelect;

export interface NewWallet {
  tenantId: string;
  vault: VaultRow;
  type: WalletType;
  address: string;
  publicKey: string | null;
  label?: string | undefined;
  /** Omitted: the native asset of the vault's network. */
  assetIds?: string[] | undefined;
  actor: CustodyActor;
  auditAction: "wallet.generated" | "wallet.registered" | "wallet.watch_only_added";
}

/**
 * Inserts a wallet, its home placement, its audit row and the `wallet.created` event in the
 * caller's transaction. An enrolled signer key with the same address leaves the pool (it is
 * this wallet's key now). The address must be canonical already.
 */
export async function insertWallet(tx: Executor, wallet: NewWallet): Promise<WalletRecord> {
  const networkCode = wallet.vault.networkCode;
  const assetIds = await resolveWalletAssetIds(tx, wallet.tenantId, networkCode, wallet.assetIds ?? [nativeAssetId(networkCode)]);
  const [taken] = await tx
    .select({ id: schema.wallets.id })
    .from(schema.wallets)
    .where(and(eq(schema.wallets.tenantId, wallet.tenantId), eq(schema.wallets.address, wallet.address)));
  if (taken) throw addressTaken(wallet.address);
  const [row] = await tx
    .insert(schema.wallets)
    .values({
      tenantId: wallet.tenantId,
      vaultId: wallet.vault.id,
      type: wallet.type,
      address: wallet.address,
      publicKey: wallet.publicKey,
      label: wallet.label ?? null,
      assetIds,
    })
    .returning();
  const link = { networkCode, vaultId: wallet.vault.id };
  await tx.insert(schema.walletNetworkLinks).values({ tenantId: wallet.tenantId, walletId: row!.id, ...link });
  await tx
    .update(schema.signerKeys)
    .set({ walletId: row!.id, assignedAt: row!.createdAt })
    .where(and(eq(schema.signerKeys.tenantId, wallet.tenantId), eq(schema.signerKeys.address, wallet.address), isNull(schema.signerKeys.walletId)));
  const record = toWalletRecord(row!, [link]);
  await auditCustody(tx, wallet.actor, wallet.tenantId, wallet.auditAction, { type: "wallet", id: row!.id }, {
    vaultId: wallet.vault.id,
    address: wallet.address,
    type: wallet.type,
  });
  await emitEvent(tx, wallet.tenantId, "wallet.created", { wallet: record });
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
    if (violatesUniqueConstraint(error, "wallets_tenant_address_unique")) throw addressTaken(address ?? "the address");
    throw error;
  }
}
