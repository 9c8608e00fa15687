import { getActivePrecompiles, type CustomPrecompile, type EVMMockBlockchainInterface } from "@ethereumjs/evm";
import type { MerkleStateManager } from "@ethereumjs/statemanager";
import { createAddressFromString, hexToBytes as ethjsHexToBytes } from "@ethereumjs/util";
import { createVM, runTx, type RunTxResult, type VM } from "@ethereumjs/vm";
import { MLDSA87_DESCRIPTOR, serializeQuantumTransaction, type QuantumTransactionSigned } from "@qc/chain";
import { bytesToHex, hexToBytes, keccak256, type Address, type Hex } from "viem";
import { mergeBlooms, nextBaseFee, receiptsRoot, sealBlock, transactionsRoot, ZERO_HASH } from "./block-header";
import type { ChainContext } from "./context";
import { executionBlock, impersonatedTransaction, type BlockContext, type ExecutableTransaction } from "./execution";
import { describeSelector, UnknownBlockError, type BlockSelector } from "./index-store";
import { decodeRevertReason } from "./simulation";
import { TransferTracer, type TracedLog } from "./transfer-tracer";
import {
  MAX_SIMULATED_BLOCKS,
  SIMULATE_ERROR,
  SIMULATED_BLOCK_TIME,
  SimulationError,
  type AccountOverride,
  type BlockOverrides,
  type BlockStateCall,
  type SimulatedBlock,
  type SimulatedCallResult,
  type SimulateRequest,
} from "./simulate-request";
import type { DevnetBlock, DevnetLog, MinedTransaction } from "./types";

const ZERO_ADDRESS: Address = "0x0000000000000000000000000000000000000000";
const lower = (a: Address): Address => a.toLowerCase() as Address;

/**
 * `eth_simulateV1` (execution-apis): executes `blockStateCalls` as consecutive blocks on top of
 * `selector`, on a copy of its state that is thrown away. Unsigned calls run from any `from`;
 * every other rule a real block applies (nonce, fee cap against the base fee, balance, intrinsic
 * gas, block gas limit) applies when `validation` is on; without it the base fee defaults to 0,
 * nonces are taken from the state and only the rules that make a call meaningless (funds for
 * value and fees, intrinsic gas, block gas) are kept, as in the reference implementation.
 */
export async function simulateBlocks(chain: ChainContext, request: SimulateRequest, selector: BlockSelector): Promise<SimulatedBlock[]> {
  if (request.blockStateCalls.length > MAX_SIMULATED_BLOCKS) throw new SimulationError(SIMULATE_ERROR.CLIENT_LIMIT, "too many blocks");
  return chain.lock.run(async () => {
    const base = chain.index.getBlock(selector === "pending" ? "latest" : selector);
    if (!base) throw new UnknownBlockError(`block ${describeSelector(selector)} not found`);
    const state = await stateCopyAfter(chain, base);
    const run = new SimulationRun(chain, state, base, request);
    return run.execute();
  });
}

/** A throw-away copy of the state after `block` (at the head: with the `devnet_fund` credits since). */
async function stateCopyAfter(chain: ChainContext, block: DevnetBlock): Promise<MerkleStateManager> {
  const atHead = block.number === chain.index.head().number;
  const root = atHead ? await chain.state.getStateRoot() : hexToBytes(chain.index.atHeight(Number(block.number) + 1)!.preStateRoot);
  const copy = chain.state.shallowCopy();
  await copy.setStateRoot(root);
  return copy;
}

class SimulationRun {
  private readonly simulated = new Map<number, Hex>();
  private readonly blockchain: EVMMockBlockchainInterface;
  private readonly basePrecompiles: Map<string, unknown>;
  private baseVm: VM | undefined;
  private readonly tracers = new Map<VM, TransferTracer>();
  private parent: DevnetBlock;

  constructor(
    private readonly chain: ChainContext,
    private readonly state: MerkleStateManager,
    base: DevnetBlock,
    private readonly request: SimulateRequest,
  ) {
    this.parent = base;
    // BLOCKHASH sees the simulated blocks above the base and the real chain below it.
    const real = chain.vm.blockchain as EVMMockBlockchainInterface;
    const simulated = this.simulated;
    this.blockchain = {
      async getBlock(n: number) {
        const hash = simulated.get(n);
        return hash ? { hash: () => hexToBytes(hash) } : real.getBlock(n);
      },
      async putBlock() {},
      shallowCopy() {
        return this;
      },
    };
    this.basePrecompiles = getActivePrecompiles(chain.common);
  }

  async execute(): Promise<SimulatedBlock[]> {
    const out: SimulatedBlock[] = [];
    for (const blockStateCall of this.request.blockStateCalls) {
      const overrides = blockStateCall.blockOverrides ?? {};
      const number = overrides.number ?? this.parent.number + 1n;
      if (number <= this.parent.number) {
        throw new SimulationError(SIMULATE_ERROR.BLOCK_NUMBER_ORDER, `block numbers must be in order: ${number} <= ${this.parent.number}`);
      }
      // Blocks skipped by a number override are simulated empty, each a block time apart.
      while (this.parent.number + 1n < number) {
        this.checkLimit();
        out.push({ block: await this.seal(this.header({}), [], 0n), calls: [] });
      }
      this.checkLimit();
      out.push(await this.simulateBlock(blockStateCall));
    }
    return out;
  }

  /** One tracer per VM: the base VM serves every block without precompile changes. */
  private tracerOf(vm: VM): TransferTracer {
    let tracer = this.tracers.get(vm);
    if (!tracer) this.tracers.set(vm, (tracer = new TransferTracer(vm.evm)));
    return tracer;
  }

  private checkLimit(): void {
    if (this.simulated.size >= MAX_SIMULATED_BLOCKS) throw new SimulationError(SIMULATE_ERROR.CLIENT_LIMIT, "too many blocks");
  }

  private header(overrides: BlockOverrides): BlockContext {
    const parent = this.parent;
    const time = overrides.time ?? parent.timestamp + SIMULATED_BLOCK_TIME;
    if (time <= parent.timestamp) {
      throw new SimulationError(SIMULATE_ERROR.BLOCK_TIMESTAMP_ORDER, `block timestamps must be in order: ${time} <= ${parent.timestamp}`);
    }
    const baseFeePerGas =
      overrides.baseFeePerGas ?? (this.request.validation ? nextBaseFee(parent, this.chain.config.minBaseFeePerGas) : 0n);
    return {
      number: parent.number + 1n,
      timestamp: time,
      gasLimit: overrides.gasLimit ?? parent.gasLimit,
      baseFeePerGas,
      coinbase: lower(overrides.feeRecipient ?? ZERO_ADDRESS),
      parentHash: parent.hash,
      mixHash: overrides.prevRandao ?? ZERO_HASH,
    };
  }

  private async simulateBlock(blockStateCall: BlockStateCall): Promise<SimulatedBlock> {
    const ctx = this.header(blockStateCall.blockOverrides ?? {});
    const vm = await this.applyStateOverrides(blockStateCall.stateOverrides ?? []);
    const tracer = this.request.traceTransfers ? this.tracerOf(vm) : undefined;
    const evmBlock = executionBlock(this.chain.common, ctx);
    let freeBlock: ReturnType<typeof executionBlock> | undefined;
    const included: MinedTransaction[] = [];
    const calls: Omit<SimulatedCallResult, "logs">[] = [];
    const callLogs: TracedLog[][] = [];
    let gasUsed = 0n;
    for (const [i, call] of blockStateCall.calls.entries()) {
      const from = lower(call.from ?? ZERO_ADDRESS);
      const gas = call.gas ?? ctx.gasLimit - gasUsed;
      if (gasUsed + gas > ctx.gasLimit) {
        throw new SimulationError(SIMULATE_ERROR.BLOCK_GAS_LIMIT, `block gas limit reached: ${gasUsed} + ${gas} > ${ctx.gasLimit}`);
      }
      const stateNonce = (await this.state.getAccount(createAddressFromString(from)))?.nonce ?? 0n;
      if (this.request.validation && call.nonce !== undefined && call.nonce !== stateNonce) {
        const low = call.nonce < stateNonce;
        throw new SimulationError(
          low ? SIMULATE_ERROR.NONCE_TOO_LOW : SIMULATE_ERROR.NONCE_TOO_HIGH,
          `nonce too ${low ? "low" : "high"}: address ${from}, tx: ${call.nonce} state: ${stateNonce}`,
        );
      }
      const maxFeePerGas = call.maxFeePerGas ?? 0n;
      const maxPriorityFeePerGas = call.maxPriorityFeePerGas ?? 0n;
      if (maxPriorityFeePerGas > maxFeePerGas) {
        throw new SimulationError(
          SIMULATE_ERROR.INVALID_PARAMS,
          `max priority fee per gas higher than max fee per gas: address ${from}, maxPriorityFeePerGas: ${maxPriorityFeePerGas}, maxFeePerGas: ${maxFeePerGas}`,
        );
      }
      let block = evmBlock;
      if (maxFeePerGas < ctx.baseFeePerGas) {
        if (this.request.validation) {
          throw new SimulationError(
            SIMULATE_ERROR.BASE_FEE_TOO_LOW,
            `max fee per gas less than block base fee: address ${from}, maxFeePerGas: ${maxFeePerGas}, baseFee: ${ctx.baseFeePerGas}`,
          );
        }
        // Without validation a fee cap under the base fee is allowed and pays no base fee.
        freeBlock ??= executionBlock(this.chain.common, { ...ctx, baseFeePerGas: 0n });
        block = freeBlock;
      }
      const fields = {
        from,
        nonce: stateNonce,
        gas,
        maxFeePerGas,
        maxPriorityFeePerGas,
        to: call.to ? lower(call.to) : null,
        value: call.value ?? 0n,
        data: call.data ?? "0x",
        accessList: call.accessList ?? [],
      };
      tracer?.reset();
      const result = await this.runCall(vm, block, fields, gasUsed);
      gasUsed += result.totalGasSpent;
      const failure = result.execResult.exceptionError;
      const returnValue = bytesToHex(result.execResult.returnValue);
      const evmLogs: TracedLog[] = failure
        ? []
        : (result.execResult.logs ?? []).map(([address, topics, data]) => ({
            address: bytesToHex(address) as Address,
            topics: topics.map((t) => bytesToHex(t)),
            data: bytesToHex(data),
          }));
      callLogs.push(tracer && !failure ? tracer.merge(evmLogs) : evmLogs);
      const logsForReceipt: DevnetLog[] = evmLogs.map((log, logIndex) => ({ ...log, logIndex }));
      calls.push({
        status: failure ? 0 : 1,
        returnData: failure ? "0x" : returnValue,
        gasUsed: result.totalGasSpent,
        ...(failure ? { error: callError(failure.error, returnValue) } : {}),
      });
      included.push(simulatedTransaction(this.chain, fields, i, result, gasUsed, block.header.baseFeePerGas ?? 0n, logsForReceipt));
    }
    const sealed = await this.seal(ctx, included, gasUsed);
    // Logs are numbered across the block, as in receipts; the transfer logs take their places.
    let logIndex = 0;
    const withLogs = calls.map((call, i) => ({ ...call, logs: callLogs[i]!.map((log) => ({ ...log, logIndex: logIndex++ })) }));
    return { block: sealed, calls: withLogs };
  }

  private async runCall(vm: VM, block: ReturnType<typeof executionBlock>, fields: ExecutableTransaction, gasUsed: bigint) {
    let tx: ReturnType<typeof impersonatedTransaction>;
    try {
      tx = impersonatedTransaction(this.chain.common, fields);
    } catch (error) {
      const message = (error as Error).message;
      if (/init ?code/i.test(message))
        throw new SimulationError(SIMULATE_ERROR.INIT_CODE_TOO_LARGE, `max initcode size exceeded: ${message}`);
      throw new SimulationError(SIMULATE_ERROR.INVALID_PARAMS, `invalid call: ${message}`);
    }
    try {
      return await runTx(vm, { tx, block, blockGasUsed: gasUsed, skipHardForkValidation: true, skipBlockGasLimitValidation: true });
    } catch (error) {
      throw rejection(error, fields.from);
    }
  }

  /** Applies one block's state overrides; a VM whose precompiles follow any moves or replacements. */
  private async applyStateOverrides(overrides: [Address, AccountOverride][]): Promise<VM> {
    const precompiles = new Map(this.basePrecompiles);
    const moved = new Set<string>();
    for (const [address, override] of overrides) {
      const key = address.slice(2).toLowerCase();
      const precompile = this.basePrecompiles.get(key);
      if (override.movePrecompileToAddress !== undefined) {
        const target = override.movePrecompileToAddress.slice(2).toLowerCase();
        if (!precompile) throw new SimulationError(SIMULATE_ERROR.INVALID_REQUEST, `account ${address} is not a precompile`);
        if (target === key) {
          throw new SimulationError(SIMULATE_ERROR.MOVE_PRECOMPILE_SELF, `account ${address} cannot move its precompile to itself`);
        }
        if (overrides.some(([other]) => other.slice(2).toLowerCase() === target)) {
          throw new SimulationError(SIMULATE_ERROR.INVALID_REQUEST, `account ${override.movePrecompileToAddress} is already overridden`);
        }
        precompiles.set(target, precompile);
        moved.add(target);
      }
      // Code put on a precompile's address runs instead of the precompile.
      if (precompile && (override.movePrecompileToAddress !== undefined || override.code !== undefined) && !moved.has(key)) {
        precompiles.set(key, undefined);
      }
      await applyAccountOverride(this.state, address, override);
    }
    const custom: CustomPrecompile[] = [];
    for (const [key, fn] of precompiles) {
      if (this.basePrecompiles.get(key) === fn) continue;
      const address = createAddressFromString(`0x${key}`);
      custom.push(fn ? { address, function: fn as never } : { address });
    }
    if (custom.length === 0) {
      this.baseVm ??= await createVM({ common: this.chain.common, stateManager: this.state, blockchain: this.blockchain });
      return this.baseVm;
    }
    return createVM({
      common: this.chain.common,
      stateManager: this.state,
      blockchain: this.blockchain,
      evmOpts: { customPrecompiles: custom },
    });
  }

  private async seal(header: BlockContext, included: MinedTransaction[], gasUsed: bigint): Promise<DevnetBlock> {
    const stateRoot = bytesToHex(await this.state.getStateRoot());
    const block = sealBlock(
      {
        number: header.number,
        parentHash: header.parentHash,
        timestamp: header.timestamp,
        stateRoot,
        transactionsRoot: await transactionsRoot(included),
        receiptsRoot: await receiptsRoot(included),
        logsBloom: mergeBlooms(included.map((t) => t.receipt.logsBloom)),
        gasUsed,
        gasLimit: header.gasLimit,
        baseFeePerGas: header.baseFeePerGas,
        miner: header.coinbase,
        mixHash: header.mixHash,
        extraData: "0x",
      },
      this.parent.stateRoot,
      included,
    );
    // Each transaction and log points at its simulated block.
    this.simulated.set(Number(block.number), block.hash);
    this.parent = block;
    return block;
  }
}

async function applyAccountOverride(state: MerkleStateManager, address: Address, override: AccountOverride): Promise<void> {
  const at = createAddressFromString(address);
  if (override.balance !== undefined || override.nonce !== undefined) {
    await state.modifyAccountFields(at, {
      ...(override.balance !== undefined ? { balance: override.balance } : {}),
      ...(override.nonce !== undefined ? { nonce: override.nonce } : {}),
    });
  }
  if (override.code !== undefined) await state.putCode(at, hexToBytes(override.code));
  if (override.state) {
    await state.clearStorage(at);
    for (const [slot, value] of override.state) await state.putStorage(at, hexToBytes(slot), storageValue(value));
  }
  for (const [slot, value] of override.stateDiff ?? []) await state.putStorage(at, hexToBytes(slot), storageValue(value));
}

/** Storage holds values without leading zero bytes; zero deletes the slot. */
function storageValue(value: Hex): Uint8Array {
  const bytes = ethjsHexToBytes(value);
  const first = bytes.findIndex((b) => b !== 0);
  return first === -1 ? new Uint8Array() : bytes.slice(first);
}

/** A transaction the EVM refused before executing it → the spec's code for the rule it broke. */
function rejection(error: unknown, from: Address): SimulationError {
  const message = (error as Error)?.message ?? String(error);
  const detail = message.replace(/\s*\((vm hf|block)=.*$/s, "");
  if (/INTRINSIC_GAS_TOO_LOW/.test(message)) return new SimulationError(SIMULATE_ERROR.INTRINSIC_GAS, `intrinsic gas too low: ${detail}`);
  if (/enough funds/.test(message)) {
    return new SimulationError(SIMULATE_ERROR.INSUFFICIENT_FUNDS, `insufficient funds for gas * price + value: address ${from}: ${detail}`);
  }
  if (/not EOA/.test(message)) return new SimulationError(SIMULATE_ERROR.SENDER_NOT_EOA, `sender not an eoa: address ${from}`);
  if (/baseFeePerGas/.test(message)) return new SimulationError(SIMULATE_ERROR.BASE_FEE_TOO_LOW, detail);
  if (/init ?code/i.test(message)) return new SimulationError(SIMULATE_ERROR.INIT_CODE_TOO_LARGE, detail);
  return new SimulationError(SIMULATE_ERROR.INTERNAL, detail);
}

/** A call that ran and failed: `3` and the revert data, or `-32015` and the EVM's reason. */
function callError(reason: string, data: Hex): { code: number; message: string; data?: Hex } {
  if (reason === "revert") return { code: 3, message: `execution reverted${decodeRevertReason(data)}`, data };
  return { code: -32015, message: reason };
}

/**
 * The unsigned `0x51` transaction a call stands for: its hash is keccak256 of the unsigned
 * serialization (the signing hash a wallet would sign), with no signature or public key.
 */
function simulatedTransaction(
  chain: ChainContext,
  fields: ExecutableTransaction,
  index: number,
  result: RunTxResult,
  cumulativeGasUsed: bigint,
  baseFeePerGas: bigint,
  logs: DevnetLog[],
): MinedTransaction {
  const unsigned = {
    chainId: chain.config.chainId,
    nonce: Number(fields.nonce),
    maxPriorityFeePerGas: fields.maxPriorityFeePerGas,
    maxFeePerGas: fields.maxFeePerGas,
    gas: fields.gas,
    to: fields.to,
    value: fields.value,
    data: fields.data,
    accessList: fields.accessList,
  };
  const raw = serializeQuantumTransaction(unsigned);
  const hash = keccak256(raw);
  const tip =
    fields.maxPriorityFeePerGas < fields.maxFeePerGas - baseFeePerGas ? fields.maxPriorityFeePerGas : fields.maxFeePerGas - baseFeePerGas;
  const tx: QuantumTransactionSigned = {
    type: "quantum",
    ...unsigned,
    descriptor: MLDSA87_DESCRIPTOR,
    signature: "0x",
    publicKey: "0x",
    from: fields.from,
    hash,
  };
  return {
    hash,
    raw,
    tx,
    from: fields.from,
    seq: index,
    index,
    receipt: {
      status: result.execResult.exceptionError ? 0 : 1,
      gasUsed: result.totalGasSpent,
      cumulativeGasUsed,
      effectiveGasPrice: baseFeePerGas + (tip > 0n ? tip : 0n),
      contractAddress: fields.to === null && result.createdAddress ? (result.createdAddress.toString() as Address) : null,
      logs,
      logsBloom: bytesToHex(result.bloom.bitvector),
    },
  };
}
