import { erc20Abi } from "viem";

/** The standard ERC-20 ABI (viem's), used for reads, calldata and log decoding. */
export const ERC20_ABI = erc20Abi;
