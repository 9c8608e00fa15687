import type { Address, Chain, Client, Transport } from "viem";
import { getCode, readContract } from "viem/actions";
import type { InvalidAddressErrorType } from "../errors/address";
import { BaseError } from "../errors/base";
import { mapRpcError, type MappedRpcError } from "../errors/node";
import { ERC20_ABI } from "../erc20/abi";
import { parseAddress } from "../protocol/address";

export type ReadErc20MetadataParameters = {
  token: string;
};

export type ReadErc20MetadataReturnType = {
  token: Address;
  symbol: string;
  decimals: number;
  /** `name()` is optional in ERC-20; null when the token does not implement it. */
  name: string | null;
};

export type NotAnErc20ContractErrorType = NotAnErc20ContractError & { name: "NotAnErc20ContractError" };
/** No contract at the address, or it does not answer `symbol()`/`decimals()` as an ERC-20. */
export class NotAnErc20ContractError extends BaseError {
  readonly token: Address;
  constructor({ token, cause }: { token: Address; cause?: unknown }) {
    super(`${token} is not an ERC-20 token contract.`, { cause, name: "NotAnErc20ContractError" });
    this.token = token;
  }
}

export type ReadErc20MetadataErrorType = InvalidAddressErrorType | NotAnErc20ContractErrorType | MappedRpcError;

/** `symbol()`, `decimals()` and, when present, `name()` of an ERC-20. */
export async function readErc20Metadata(
  client: Client<Transport, Chain | undefined>,
  { token }: ReadErc20MetadataParameters,
): Promise<ReadErc20MetadataReturnType> {
  const address = parseAddress(token);
  let code: string | undefined;
  try {
    code = await getCode(client, { address });
  } catch (error) {
    throw mapRpcError(error);
  }
  if (!code || code === "0x") throw new NotAnErc20ContractError({ token: address });
  const read = async <T>(functionName: "symbol" | "decimals" | "name"): Promise<T> =>
    (await readContract(client, { address, abi: ERC20_ABI, functionName })) as T;
  let symbol: string;
  let decimals: number;
  try {
    [symbol, decimals] = await Promise.all([read<string>("symbol"), read<number>("decimals")]);
  } catch (error) {
    const mapped = mapRpcError(error);
    if (mapped.name === "RpcUnavailableError") throw mapped;
    throw new NotAnErc20ContractError({ token: address, cause: error });
  }
  const name = await read<string>("name").catch((error: unknown) => {
    const mapped = mapRpcError(error);
    if (mapped.name === "RpcUnavailableError") throw mapped;
    return null;
  });
  return { token: address, symbol, decimals: Number(decimals), name };
}
