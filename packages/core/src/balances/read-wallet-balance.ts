import { readErc20Balance, readNativeBalance, type NetworkCode } from "@qc/chain";
import { findNetworkLink } from "@qc/db/queries";
import { findVisibleAsset } from "../assets/asset-record";
import { nativeAssetId } from "../assets/native-assets";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { findVault } from "../vaults/vault-record";
import { findWallet } from "../wallets/wallet-record";
import { chainUnavailable } from "./chain-errors";

export interface WalletBalance {
  walletId: string;
  assetId: string;
  /** Raw units (Qwei or token base units), decimal integer string. */
  balance: string;
  /** The block the balance was read at. */
  blockNumber: number;
  queriedAt: string;
}

export interface ReadWalletBalanceInput {
  tenantId: string;
  walletId: string;
  assetId?: string;
  networkCode?: NetworkCode;
}

/**
 * Live balance of a wallet (any type, any status): the block number is read first and the
 * balance at that block (`eth_getBalance`, or ERC-20 `balanceOf` through `eth_call`), so the
 * pair is consistent. Defaults: the asset's network, else the wallet's home network; the native
 * asset of that network. The wallet must be placed on the network and the asset belong to it
 * (400 NETWORK_MISMATCH); an RPC that cannot be reached is 503 UNAVAILABLE naming the network.
 */
export async function readWalletBalance(
  deps: Pick<ServiceDeps, "db" | "chain" | "now">,
  input: ReadWalletBalanceInput,
): Promise<WalletBalance> {
  const wallet = await findWallet(deps.db, input.tenantId, input.walletId);
  const home = await findVault(deps.db, input.tenantId, wallet.vaultId);
  const asset = input.assetId ? await findVisibleAsset(deps.db, input.tenantId, input.assetId) : undefined;
  const networkCode = input.networkCode ?? asset?.networkCode ?? home.networkCode;
  if (asset && asset.networkCode !== networkCode) {
    throw new AppError("NETWORK_MISMATCH", `asset ${asset.id} is on ${asset.networkCode}, not ${networkCode}`, {
      details: { assetId: asset.id, assetNetworkCode: asset.networkCode, networkCode },
    });
  }
  const placement = await findNetworkLink(deps.db, { tenantId: input.tenantId, walletId: wallet.id, networkCode });
  if (!placement) {
    throw new AppError("NETWORK_MISMATCH", `the wallet is not placed on ${networkCode}`, { details: { walletId: wallet.id, networkCode } });
  }
  const client = deps.chain.client(networkCode);
  try {
    const read =
      asset?.kind === "TOKEN"
        ? await readErc20Balance(client, { token: asset.contractAddress!, owner: wallet.address })
        : await readNativeBalance(client, { address: wallet.address });
    return {
      walletId: wallet.id,
      assetId: asset?.id ?? nativeAssetId(networkCode),
      balance: read.balance.toString(),
      blockNumber: Number(read.blockNumber),
      queriedAt: deps.now().toISOString(),
    };
  } catch (error) {
    throw chainUnavailable(networkCode, error);
  }
}
