import { createAddressFromString } from "@ethereumjs/util";
import {
  isSignedQuantumTransaction,
  parseQuantumTransaction,
  signingHash,
  TRANSACTION_REJECTION_REASONS,
  verifyQuantumSigningHash,
  type QuantumTransactionSigned,
  type TransactionRejectionReason,
} from "@qc/chain";
import { hexToBytes, type Hex } from "viem";
import { MAX_NONCE_GAP, MAX_POOL_SIZE, MAX_RAW_TX_BYTES, REPLACEMENT_BUMP_PERCENT } from "../config";
import type { ChainContext } from "./context";

/** A transaction refused at admission; the RPC layer answers `-32003` with the reason. */
export class TransactionRejection extends Error {
  readonly reason: TransactionRejectionReason;
  constructor(reason: TransactionRejectionReason, detail?: string) {
    super(detail ? `${TRANSACTION_REJECTION_REASONS[reason]}: ${detail}` : TRANSACTION_REJECTION_REASONS[reason]);
    this.reason = reason;
  }
}

/**
 * Admits a raw signed `0x51` transaction to the mempool, or throws `TransactionRejection`.
 * Checks, in order: size, type, encoding, chain id, gas, ML-DSA-87 signature (context
 * `QUANTUM-TX-v1`), then against state: nonce, fee cap vs the market's next base fee (a
 * `baseFee` fault makes such a transaction wait in the pool, not refused), balance,
 * replacement bump. Resubmitting a known transaction returns its hash.
 */
export async function submitRawTransaction(chain: ChainContext, raw: Hex): Promise<Hex> {
  const started = performance.now();
  try {
    const hash = await admit(chain, raw);
    chain.metrics.admitted++;
    return hash;
  } catch (error) {
    if (error instanceof TransactionRejection) chain.metrics.rejected++;
    throw error;
  } finally {
    chain.metrics.admissionMs += performance.now() - started;
  }
}

async function admit(chain: ChainContext, rawInput: Hex): Promise<Hex> {
  const { config, mempool, index, metrics } = chain;
  if (typeof rawInput !== "string" || !/^0x[0-9a-fA-F]*$/.test(rawInput) || rawInput.length % 2 !== 0) {
    throw new TransactionRejection("MALFORMED", "raw transaction is not 0x-prefixed hex");
  }
  if ((rawInput.length - 2) / 2 > MAX_RAW_TX_BYTES) {
    throw new TransactionRejection("MALFORMED", `raw transaction exceeds ${MAX_RAW_TX_BYTES} bytes`);
  }
  const raw = rawInput.toLowerCase() as Hex;
  if (!raw.startsWith("0x51")) {
    throw new TransactionRejection("UNSUPPORTED_TYPE", `type 0x${raw.slice(2, 4) || "??"} (this chain accepts only 0x51)`);
  }
  let tx: QuantumTransactionSigned;
  try {
    const parsed = parseQuantumTransaction(raw);
    if (!isSignedQuantumTransaction(parsed)) throw new TransactionRejection("MALFORMED", "transaction is not signed");
    tx = parsed;
  } catch (error) {
    if (error instanceof TransactionRejection) throw error;
    const reason = (error as { reason?: string }).reason ?? (error as Error).message;
    throw new TransactionRejection("MALFORMED", reason);
  }
  const hash = tx.hash;
  if (mempool.has(hash) || index.hasTransaction(hash)) return hash;
  if (tx.chainId !== config.chainId) {
    throw new TransactionRejection("WRONG_CHAIN_ID", `expected ${config.chainId}, got ${tx.chainId}`);
  }
  if (tx.gas > config.blockGasLimit) {
    throw new TransactionRejection("GAS_LIMIT_EXCEEDED", `gas ${tx.gas} > block gas limit ${config.blockGasLimit}`);
  }
  const intrinsic = intrinsicGas(tx);
  if (tx.gas < intrinsic) {
    throw new TransactionRejection("INTRINSIC_GAS_TOO_LOW", `gas ${tx.gas} < intrinsic gas ${intrinsic}`);
  }
  const verifyStarted = performance.now();
  const valid = verifyQuantumSigningHash({ signingHash: signingHash(tx), signature: tx.signature, publicKey: tx.publicKey });
  metrics.signatureChecks++;
  metrics.signatureMs += performance.now() - verifyStarted;
  if (!valid) {
    throw new TransactionRejection("INVALID_SIGNATURE", "ML-DSA-87 verification failed over the signing hash with context QUANTUM-TX-v1");
  }

  return chain.lock.run(async () => {
    if (mempool.has(hash) || index.hasTransaction(hash)) return hash;
    const account = await chain.state.getAccount(createAddressFromString(tx.from));
    const stateNonce = Number(account?.nonce ?? 0n);
    const balance = account?.balance ?? 0n;
    if (tx.nonce < stateNonce) {
      throw new TransactionRejection("NONCE_TOO_LOW", `next nonce ${stateNonce}, transaction nonce ${tx.nonce}`);
    }
    if (tx.nonce >= stateNonce + MAX_NONCE_GAP) {
      throw new TransactionRejection(
        "NONCE_TOO_HIGH",
        `next nonce ${stateNonce}, transaction nonce ${tx.nonce} (max gap ${MAX_NONCE_GAP})`,
      );
    }
    const baseFee = chain.marketBaseFee();
    if (tx.maxFeePerGas < baseFee) {
      throw new TransactionRejection("FEE_TOO_LOW", `maxFeePerGas ${tx.maxFeePerGas} below base fee ${baseFee}`);
    }
    const cost = tx.gas * tx.maxFeePerGas + tx.value;
    if (balance < cost) {
      throw new TransactionRejection("INSUFFICIENT_FUNDS", `balance ${balance}, gas * maxFeePerGas + value = ${cost}`);
    }
    const existing = mempool.bySenderNonce(tx.from, tx.nonce);
    if (existing) {
      const bump = (fee: bigint) => fee + (fee * REPLACEMENT_BUMP_PERCENT) / 100n;
      if (tx.maxFeePerGas < bump(existing.tx.maxFeePerGas) || tx.maxPriorityFeePerGas < bump(existing.tx.maxPriorityFeePerGas)) {
        throw new TransactionRejection(
          "REPLACEMENT_UNDERPRICED",
          `both fees must rise by ${REPLACEMENT_BUMP_PERCENT}% over pending ${existing.hash}`,
        );
      }
    } else if (mempool.size >= MAX_POOL_SIZE) {
      throw new TransactionRejection("TXPOOL_FULL", `${MAX_POOL_SIZE} transactions pending`);
    }
    if (chain.faults?.consumeDrop()) {
      metrics.dropped++;
      return hash;
    }
    mempool.add({ hash, raw, tx, from: tx.from, seq: chain.nextSeq() });
    chain.record({ type: "tx", raw });
    return hash;
  });
}

/**
 * Intrinsic gas under Prague, computed directly (building an EVM transaction just for this
 * costs more than the formula): 21000, +32000 and 2 per initcode word for a creation
 * (EIP-3860), 4/16 per zero/non-zero calldata byte, 2400 per access-list address and 1900
 * per key, and never below the EIP-7623 calldata floor 21000 + 10 × tokens. The EVM
 * re-checks at execution; a transaction it refuses there is evicted.
 */
function intrinsicGas(tx: QuantumTransactionSigned): bigint {
  const data = hexToBytes(tx.data);
  let zeros = 0n;
  for (const byte of data) if (byte === 0) zeros++;
  const nonZeros = BigInt(data.length) - zeros;
  let gas = 21_000n + zeros * 4n + nonZeros * 16n;
  if (tx.to === null) gas += 32_000n + 2n * ((BigInt(data.length) + 31n) / 32n);
  for (const item of tx.accessList) gas += 2_400n + 1_900n * BigInt(item.storageKeys.length);
  const floor = 21_000n + 10n * (zeros + 4n * nonZeros);
  return gas > floor ? gas : floor;
}
