import { NETWORKS, parseAddress, type NetworkCode } from "@qc/chain";
import type { Executor } from "@qc/db";
import { findTransferIntentRows, type AssetRow, type WalletRow } from "@qc/db/queries";
import { AppError } from "../errors";
import { assertTransferSource } from "../wallets/assert-transfer-source";

/** A transfer as a client states it (POST /v1/transactions, POST /v1/policies/evaluate). */
export interface TransferIntentInput {
  networkCode: NetworkCode;
  sourceWalletId: string;
  destinationAddress: string;
  assetId: string;
  /** Decimal integer string, raw units (CONTRACT §1). */
  amount: string;
}

/** The intent checked against the tenant's wallets and assets, in canonical form. */
export interface ResolvedTransferIntent {
  networkCode: NetworkCode;
  chainId: number;
  wallet: WalletRow;
  /** The vault the source wallet is placed in on `networkCode`. */
  sourceVaultId: string;
  asset: AssetRow;
  destinationAddress: string;
  amount: bigint;
}

const AMOUNT = /^(0|[1-9][0-9]{0,77})$/;
const UINT256_MAX = (1n << 256n) - 1n;

/**
 * Every rule a transfer's intent must pass before it is accepted: amount a decimal uint256
 * above zero; destination a valid address (400 INVALID_ADDRESS; EIP-55 for mixed case); the
 * source a wallet of the tenant (404), ACTIVE and not WATCH_ONLY, placed on `networkCode`
 * (400 NETWORK_MISMATCH); the asset one the tenant sees on that network (400 UNKNOWN_ASSET).
 */
export async function resolveTransferIntent(db: Executor, tenantId: string, input: TransferIntentInput): Promise<ResolvedTransferIntent> {
  if (typeof input.amount !== "string" || !AMOUNT.test(input.amount) || BigInt(input.amount) > UINT256_MAX) {
    throw fieldError("amount", "amount must be a decimal integer string (uint256)");
  }
  const amount = BigInt(input.amount);
  if (amount === 0n) throw fieldError("amount", "amount must be greater than zero");
  let destinationAddress: string;
  try {
    destinationAddress = parseAddress(input.destinationAddress);
  } catch {
    throw new AppError(
      "INVALID_ADDRESS",
      "destinationAddress is not a valid address: 40 hex digits with optional 0x; mixed case must pass EIP-55",
      {
        details: { field: "destinationAddress" },
      },
    );
  }
  // One statement reads the wallet, its placement and the asset; the rules below apply in order.
  const source = await findTransferIntentRows(db, {
    tenantId,
    walletId: input.sourceWalletId,
    networkCode: input.networkCode,
    assetId: input.assetId,
  });
  if (!source) throw new AppError("NOT_FOUND", "source wallet not found", { details: { sourceWalletId: input.sourceWalletId } });
  const { wallet, vaultId, asset } = source;
  assertTransferSource(wallet);
  if (!vaultId) {
    throw new AppError("NETWORK_MISMATCH", `the source wallet is not placed on ${input.networkCode}`, {
      details: { sourceWalletId: wallet.id, networkCode: input.networkCode },
    });
  }
  if (!asset || asset.networkCode !== input.networkCode) {
    throw new AppError("UNKNOWN_ASSET", `asset ${input.assetId} is not an asset of ${input.networkCode}`, {
      details: { assetId: input.assetId, networkCode: input.networkCode },
    });
  }
  return {
    networkCode: input.networkCode,
    chainId: NETWORKS[input.networkCode].chainId,
    wallet,
    sourceVaultId: vaultId,
    asset,
    destinationAddress,
    amount,
  };
}

function fieldError(path: string, message: string): AppError {
  return new AppError("VALIDATION_FAILED", message, { details: { fields: [{ path, message }] } });
}
