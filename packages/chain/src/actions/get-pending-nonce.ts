import type { Chain, Client, Transport } from "viem";
import { getTransactionCount } from "viem/actions";
import type { InvalidAddressErrorType } from "../errors/address";
import { mapRpcError, type MappedRpcError } from "../errors/node";
import { parseAddress } from "../protocol/address";

export type GetPendingNonceParameters = { address: string };
export type GetPendingNonceReturnType = { latest: number; pending: number };
export type GetPendingNonceErrorType = InvalidAddressErrorType | MappedRpcError;

/** Next nonce by mined state (`latest`) and counting the node's mempool (`pending`). */
export async function getPendingNonce(
  client: Client<Transport, Chain | undefined>,
  { address }: GetPendingNonceParameters,
): Promise<GetPendingNonceReturnType> {
  const owner = parseAddress(address);
  try {
    const [latest, pending] = await Promise.all([
      getTransactionCount(client, { address: owner, blockTag: "latest" }),
      getTransactionCount(client, { address: owner, blockTag: "pending" }),
    ]);
    return { latest, pending };
  } catch (error) {
    throw mapRpcError(error);
  }
}
