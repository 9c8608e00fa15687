import { and, eq } from "drizzle-orm";
import type { Executor } from "../client";
import { assets, wallets } from "../schema/custody";
import { transactions } from "../schema/transfers";
import { assetVisibleTo } from "./assets";
import type { TransactionRow } from "./transactions";

/** A transaction with what its evidence (CONTRACT §19) shows beside it: the source wallet's key and proof, and the asset. */
export interface TransactionEvidenceRow {
  transaction: TransactionRow;
  /** Null for a deposit (no source wallet of the tenant). */
  wallet: { address: string; publicKey: string | null; ownershipProof: string | null } | null;
  /** Null for a row without an asset (a deployment) or an asset the tenant cannot see. */
  asset: { id: string; symbol: string; decimals: number; contractAddress: string | null } | null;
}

/** The tenant's transaction with its source wallet's key and ownership proof and its asset, or undefined (another tenant's too). */
export async function findTransactionEvidenceRow(
  db: Executor,
  params: { tenantId: string; transactionId: string },
): Promise<TransactionEvidenceRow | undefined> {
  const [row] = await db
    .select({
      transaction: transactions,
      wallet: { address: wallets.address, publicKey: wallets.publicKey, ownershipProof: wallets.ownershipProof },
      asset: { id: assets.id, symbol: assets.symbol, decimals: assets.decimals, contractAddress: assets.contractAddress },
    })
    .from(transactions)
    .leftJoin(wallets, and(eq(wallets.id, transactions.sourceWalletId), eq(wallets.tenantId, params.tenantId)))
    .leftJoin(assets, and(eq(assets.id, transactions.assetId), assetVisibleTo(params.tenantId)))
    .where(and(eq(transactions.id, params.transactionId), eq(transactions.tenantId, params.tenantId)));
  return row;
}
