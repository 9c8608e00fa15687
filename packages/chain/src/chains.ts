import {
  defineChain,
  defineTransaction,
  defineTransactionReceipt,
  hexToBigInt,
  type Hex,
  type Signature,
  type Transaction,
  type TransactionReceipt,
  type TransactionSerializable,
  type TransactionType,
} from "viem";
import { UnsupportedOperationError } from "./errors/transaction";
import { NATIVE_CURRENCY, NETWORKS, type NetworkCode } from "./networks";
import { QUANTUM_TX_TYPE_HEX } from "./protocol/constants";
import { serializeQuantumTransaction, type QuantumTransactionSerializable } from "./protocol/transaction";

/** Extra fields a QUANTUM node returns on `0x51` transactions. */
type QuantumRpcTransactionFields = {
  type?: Hex | string;
  publicKey?: Hex;
  signature?: Hex;
  descriptor?: Hex;
};

/**
 * A transaction as a viem client on a QUANTUM chain returns it: `type` is `"quantum"` for
 * `0x51`, with `publicKey`, `signature` and `descriptor` instead of `v`/`r`/`s`.
 */
export type QuantumTransaction = Omit<Transaction, "type"> & {
  type: Transaction["type"] | "quantum";
  publicKey?: Hex | undefined;
  signature?: Hex | undefined;
  descriptor?: Hex | undefined;
};

export type QuantumTransactionReceipt = TransactionReceipt<bigint, number, "success" | "reverted", TransactionType | "quantum">;

/**
 * viem request → `0x51` fields. A viem request with only `gasPrice` is treated as
 * `maxFeePerGas = maxPriorityFeePerGas = gasPrice`, which executes identically.
 */
export function toQuantumTransaction(
  tx: TransactionSerializable & { publicKey?: Hex; signature?: Hex | Signature; descriptor?: Hex },
): QuantumTransactionSerializable {
  const maxFeePerGas = tx.maxFeePerGas ?? tx.gasPrice;
  const maxPriorityFeePerGas = tx.maxPriorityFeePerGas ?? tx.gasPrice;
  if (typeof tx.signature === "object") {
    throw new UnsupportedOperationError("A secp256k1 signature", "QUANTUM transactions are signed with ML-DSA-87");
  }
  return {
    chainId: tx.chainId as number,
    nonce: tx.nonce as number,
    maxFeePerGas: maxFeePerGas as bigint,
    maxPriorityFeePerGas: maxPriorityFeePerGas as bigint,
    gas: tx.gas as bigint,
    to: tx.to ?? null,
    value: tx.value ?? 0n,
    data: tx.data ?? "0x",
    accessList: tx.accessList ?? [],
    descriptor: tx.descriptor,
    signature: tx.signature,
    publicKey: tx.publicKey,
  };
}

/** viem chain serializer: every transaction on a QUANTUM chain is `0x51`. */
function serializeTransaction(tx: TransactionSerializable, signature?: Signature): Hex {
  if (signature !== undefined) {
    throw new UnsupportedOperationError("A secp256k1 signature", "QUANTUM transactions are signed with ML-DSA-87");
  }
  return serializeQuantumTransaction(toQuantumTransaction(tx));
}

const formatters = {
  transaction: defineTransaction({
    // The returned fields are merged over viem's own formatting of the same object.
    format(args: QuantumRpcTransactionFields): QuantumTransaction {
      if (args.type !== QUANTUM_TX_TYPE_HEX) return {} as QuantumTransaction;
      return {
        type: "quantum",
        typeHex: QUANTUM_TX_TYPE_HEX,
        publicKey: args.publicKey,
        signature: args.signature,
        descriptor: args.descriptor,
      } as unknown as QuantumTransaction;
    },
  }),
  transactionReceipt: defineTransactionReceipt({
    format(args: { type?: Hex | string; effectiveGasPrice?: Hex }): QuantumTransactionReceipt {
      if (args.type !== QUANTUM_TX_TYPE_HEX) return {} as QuantumTransactionReceipt;
      // viem maps unknown type bytes to undefined; name ours, and keep effectiveGasPrice a bigint.
      return {
        type: "quantum",
        ...(args.effectiveGasPrice ? { effectiveGasPrice: hexToBigInt(args.effectiveGasPrice) } : {}),
      } as QuantumTransactionReceipt;
    },
  }),
};

function quantumChain(networkCode: NetworkCode) {
  const network = NETWORKS[networkCode];
  const localRpc = `http://127.0.0.1:${network.devnetPort}`;
  return defineChain({
    id: network.chainId,
    name: network.name,
    nativeCurrency: NATIVE_CURRENCY,
    rpcUrls: { default: { http: [localRpc] } },
    formatters,
    serializers: { transaction: serializeTransaction },
    testnet: networkCode !== "QUANTUM_MAINNET",
  });
}

/** viem chain for `QUANTUM_MAINNET` (20803). Default RPC is the local devnet port. */
export const quantumMainnet = /*#__PURE__*/ quantumChain("QUANTUM_MAINNET");
/** viem chain for `QUANTUM_SANDBOX` (20804). Default RPC is the local devnet port. */
export const quantumSandbox = /*#__PURE__*/ quantumChain("QUANTUM_SANDBOX");

export type QuantumChain = typeof quantumMainnet;

export function getQuantumChain(networkCode: NetworkCode): QuantumChain {
  return networkCode === "QUANTUM_MAINNET" ? quantumMainnet : quantumSandbox;
}
