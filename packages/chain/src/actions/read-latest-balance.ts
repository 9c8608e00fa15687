import type { Chain, Client, Transport } from "viem";
import type { InvalidAddressErrorType } from "../errors/address";
import { mapRpcError, type MappedRpcError } from "../errors/node";
import { parseAddress } from "../protocol/address";
import { balanceOf } from "./balance-of";

export type ReadLatestBalanceParameters = {
  owner: string;
  /** An ERC-20's address: its `balanceOf(owner)`; absent or null: the native (Q) balance. */
  token?: string | null;
};

export type ReadLatestBalanceErrorType = InvalidAddressErrorType | MappedRpcError;

/**
 * `owner`'s balance (Qwei, or the token's base units) at the node's latest block, not pinned to a
 * block number: one call, which a batching client sends with the reads started beside it. For a
 * decision that needs the balance only (a transfer's checks); `readNativeBalance` and
 * `readErc20Balance` read at one block and say which, at the cost of asking for its number first.
 */
export async function readLatestBalance(
  client: Client<Transport, Chain | undefined>,
  { owner, token }: ReadLatestBalanceParameters,
): Promise<bigint> {
  const ownerAddress = parseAddress(owner);
  const tokenAddress = token ? parseAddress(token) : null;
  try {
    return await balanceOf(client, { owner: ownerAddress, token: tokenAddress });
  } catch (error) {
    throw mapRpcError(error);
  }
}
