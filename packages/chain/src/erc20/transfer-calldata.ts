import { encodeFunctionData, type Address, type Hex } from "viem";
import { parseAddress } from "../protocol/address";
import { ERC20_ABI } from "./abi";

export type Erc20TransferCalldataParameters = {
  to: string;
  amount: bigint;
};

/** `transfer(to, amount)` calldata; `to` goes through `parseAddress`. */
export function erc20TransferCalldata({ to, amount }: Erc20TransferCalldataParameters): Hex {
  if (amount < 0n || amount >= 2n ** 256n) throw new RangeError("ERC-20 amount out of uint256 range");
  return encodeFunctionData({ abi: ERC20_ABI, functionName: "transfer", args: [parseAddress(to) as Address, amount] });
}
