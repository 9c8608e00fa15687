import type { MerkleStateManager } from "@ethereumjs/statemanager";
import { createAddressFromString } from "@ethereumjs/util";
import { bytesToHex, hexToBytes, type Address, type Hex } from "viem";
import type { ChainContext } from "./context";
import { describeSelector, UnknownBlockError, type BlockSelector } from "./index-store";
import type { DevnetBlock } from "./types";

/**
 * Runs `fn` against the state as of a block: the live state for the head (it includes
 * `devnet_fund` credits made since), otherwise the pre-state of the following block.
 */
async function withState<T>(
  chain: ChainContext,
  selector: BlockSelector,
  fn: (state: MerkleStateManager, block: DevnetBlock) => Promise<T>,
): Promise<T> {
  return chain.lock.run(async () => {
    const block = chain.index.getBlock(selector);
    if (!block) throw new UnknownBlockError(`block ${describeSelector(selector)} not found`);
    if (block.number === chain.index.head().number) return fn(chain.state, block);
    const next = chain.index.atHeight(Number(block.number) + 1);
    if (!next) throw new UnknownBlockError(`block ${describeSelector(selector)} not found`);
    const copy = chain.state.shallowCopy();
    await copy.setStateRoot(hexToBytes(next.preStateRoot));
    return fn(copy, block);
  });
}

export async function getBalance(chain: ChainContext, address: Address, selector: BlockSelector): Promise<bigint> {
  return withState(chain, selector, async (state) => (await state.getAccount(createAddressFromString(address)))?.balance ?? 0n);
}

/** At `pending`, the head nonce plus the consecutive run of pooled transactions after it. */
export async function getTransactionCount(chain: ChainContext, address: Address, selector: BlockSelector): Promise<number> {
  return withState(chain, selector === "pending" ? "latest" : selector, async (state) => {
    const nonce = Number((await state.getAccount(createAddressFromString(address)))?.nonce ?? 0n);
    return selector === "pending" ? chain.mempool.pendingNonce(address.toLowerCase() as Address, nonce) : nonce;
  });
}

export async function getCode(chain: ChainContext, address: Address, selector: BlockSelector): Promise<Hex> {
  return withState(chain, selector, async (state) => bytesToHex(await state.getCode(createAddressFromString(address))));
}

export async function getStorageAt(chain: ChainContext, address: Address, slot: Hex, selector: BlockSelector): Promise<Hex> {
  return withState(chain, selector, async (state) => {
    const key = hexToBytes(slot, { size: 32 });
    const value = await state.getStorage(createAddressFromString(address), key);
    return bytesToHex(value, { size: 32 });
  });
}
