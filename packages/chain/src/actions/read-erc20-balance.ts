import type { Address, Chain, Client, Transport } from "viem";
import { getBlockNumber } from "viem/actions";
import type { InvalidAddressErrorType } from "../errors/address";
import { mapRpcError, type MappedRpcError } from "../errors/node";
import { parseAddress } from "../protocol/address";
import { balanceOf } from "./balance-of";

export type ReadErc20BalanceParameters = {
  token: string;
  owner: string;
  blockNumber?: bigint;
};

export type ReadErc20BalanceReturnType = {
  token: Address;
  owner: Address;
  /** Balance in the token's base units. */
  balance: bigint;
  blockNumber: bigint;
};

export type ReadErc20BalanceErrorType = InvalidAddressErrorType | MappedRpcError;

/** `balanceOf(owner)` on an ERC-20, pinned to one block. */
export async function readErc20Balance(
  client: Client<Transport, Chain | undefined>,
  { token, owner, blockNumber }: ReadErc20BalanceParameters,
): Promise<ReadErc20BalanceReturnType> {
  const tokenAddress = parseAddress(token);
  const ownerAddress = parseAddress(owner);
  try {
    const at = blockNumber ?? (await getBlockNumber(client, { cacheTime: 0 }));
    const balance = await balanceOf(client, { owner: ownerAddress, token: tokenAddress, blockNumber: at });
    return { token: tokenAddress, owner: ownerAddress, balance, blockNumber: at };
  } catch (error) {
    throw mapRpcError(error);
  }
}
