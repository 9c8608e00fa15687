import type { MerkleStateManager } from "@ethereumjs/statemanager";
import { createAddressFromString } from "@ethereumjs/util";
import type { Address } from "viem";
import type { ChainContext } from "./context";

/** Adds `amount` Qwei to the live state; returns the new balance. */
export async function credit(state: MerkleStateManager, address: Address, amount: bigint): Promise<bigint> {
  const addr = createAddressFromString(address);
  const account = await state.getAccount(addr);
  const balance = (account?.balance ?? 0n) + amount;
  await state.modifyAccountFields(addr, { balance });
  return balance;
}

/**
 * Credits `amount` Qwei to `address` on top of the head state (like `anvil_setBalance`,
 * but additive). Visible at once at the head block number; part of the next block's
 * pre-state; survives reorgs.
 */
export async function fund(chain: ChainContext, address: Address, amount: bigint): Promise<bigint> {
  if (amount < 0n) throw new RangeError("amount must be ≥ 0");
  return chain.lock.run(async () => {
    const balance = await credit(chain.state, address, amount);
    const lower = address.toLowerCase() as Address;
    chain.funds.add(lower, amount, chain.index.head().number);
    chain.record({ type: "fund", address: lower, amount: amount.toString() });
    return balance;
  });
}
