import type { Address, Chain, Client, Transport } from "viem";
import { getBlockNumber } from "viem/actions";
import { mapRpcError, type MappedRpcError } from "../errors/node";
import type { InvalidAddressErrorType } from "../errors/address";
import { parseAddress } from "../protocol/address";
import { balanceOf } from "./balance-of";

export type ReadNativeBalanceParameters = {
  address: string;
  /** Block to read at; default the latest block. */
  blockNumber?: bigint;
};

export type ReadNativeBalanceReturnType = {
  address: Address;
  /** Balance in Qwei. */
  balance: bigint;
  /** The block the balance was read at. */
  blockNumber: bigint;
};

export type ReadNativeBalanceErrorType = InvalidAddressErrorType | MappedRpcError;

/** Native (Q) balance in Qwei, pinned to one block so balance and `blockNumber` agree. */
export async function readNativeBalance(
  client: Client<Transport, Chain | undefined>,
  { address, blockNumber }: ReadNativeBalanceParameters,
): Promise<ReadNativeBalanceReturnType> {
  const owner = parseAddress(address);
  try {
    const at = blockNumber ?? (await getBlockNumber(client, { cacheTime: 0 }));
    const balance = await balanceOf(client, { owner, token: null, blockNumber: at });
    return { address: owner, balance, blockNumber: at };
  } catch (error) {
    throw mapRpcError(error);
  }
}
