import type { Address, Chain, Client, Transport } from "viem";
import { getBalance, readContract } from "viem/actions";
import { ERC20_ABI } from "../erc20/abi";

/**
 * `owner`'s balance at `blockNumber` (absent: the node's latest block): of `token` (its
 * `balanceOf(owner)`, in the token's base units), or the native one in Qwei when `token` is null.
 * One call. The balance actions' shared read: addresses already parsed, errors left to the caller.
 */
export function balanceOf(
  client: Client<Transport, Chain | undefined>,
  { owner, token, blockNumber }: { owner: Address; token: Address | null; blockNumber?: bigint },
): Promise<bigint> {
  if (!token) return getBalance(client, { address: owner, blockNumber });
  return readContract(client, { address: token, abi: ERC20_ABI, functionName: "balanceOf", args: [owner], blockNumber });
}
