import { concatHex, fromRlp, hexToBigInt, keccak256, toRlp, type AccessList, type Address, type Hex } from "viem";
import { InvalidSerializedTransactionError, InvalidTransactionFieldError } from "../errors/transaction";
import { addressFromPublicKey } from "./address";
import { MLDSA87_DESCRIPTOR, MLDSA87_PUBLIC_KEY_LENGTH, MLDSA87_SIGNATURE_LENGTH, QUANTUM_TX_TYPE, QUANTUM_TX_TYPE_HEX } from "./constants";
import { bytesFromInput, encodeRlpUint, toLowerHex } from "./encoding";

type RlpItem = Hex | RlpItem[];

const MAX_UINT256 = 2n ** 256n - 1n;
const MAX_UINT64 = 2n ** 64n - 1n;

/**
 * Fields of a `0x51` transaction before signing. `to: null` (or absent) creates a contract.
 * `descriptor` defaults to ML-DSA-87 (`0x010000`).
 */
export type QuantumTransactionSerializable = {
  chainId: number;
  nonce: number;
  maxPriorityFeePerGas: bigint;
  maxFeePerGas: bigint;
  gas: bigint;
  to?: Address | null | undefined;
  value?: bigint | undefined;
  data?: Hex | undefined;
  accessList?: AccessList | undefined;
  descriptor?: Hex | undefined;
  /** ML-DSA-87 signature (4627 bytes). With `publicKey`, makes the serialization signed. */
  signature?: Hex | undefined;
  /** ML-DSA-87 public key (2592 bytes) of the sender. */
  publicKey?: Hex | undefined;
};

/** A fully populated unsigned transaction, as produced by `parseQuantumTransaction`. */
export type QuantumTransactionUnsigned = {
  type: "quantum";
  chainId: number;
  nonce: number;
  maxPriorityFeePerGas: bigint;
  maxFeePerGas: bigint;
  gas: bigint;
  to: Address | null;
  value: bigint;
  data: Hex;
  accessList: AccessList;
  descriptor: Hex;
};

export type QuantumTransactionSigned = QuantumTransactionUnsigned & {
  signature: Hex;
  publicKey: Hex;
  /** Address of `publicKey`. */
  from: Address;
  /** keccak256 of the raw signed transaction. */
  hash: Hex;
};

export type ParsedQuantumTransaction = QuantumTransactionUnsigned | QuantumTransactionSigned;

/** `0x51 ‖ rlp([...])`, branded by whether it carries a signature. */
export type SerializedQuantumTransaction = `0x51${string}`;

function requireUint(field: string, value: unknown, max: bigint): bigint {
  if (typeof value !== "bigint" && typeof value !== "number") {
    throw new InvalidTransactionFieldError({ field, reason: "is required" });
  }
  if (typeof value === "number" && !Number.isSafeInteger(value)) {
    throw new InvalidTransactionFieldError({ field, reason: "must be a safe integer" });
  }
  const big = BigInt(value);
  if (big < 0n || big > max) throw new InvalidTransactionFieldError({ field, reason: "is out of range" });
  return big;
}

function requireHexBytes(field: string, value: unknown, length?: number): Hex {
  const bytes = bytesFromInput(value, length);
  if (!bytes || (typeof value === "string" && !value.startsWith("0x"))) {
    throw new InvalidTransactionFieldError({
      field,
      reason: length === undefined ? "must be 0x-prefixed hex" : `must be ${length} bytes of 0x-prefixed hex`,
    });
  }
  return toLowerHex(bytes);
}

function unsignedFields(tx: QuantumTransactionSerializable): RlpItem[] {
  const to = tx.to === undefined || tx.to === null ? "0x" : requireHexBytes("to", tx.to, 20);
  const accessList = (tx.accessList ?? []).map((item, i) => [
    requireHexBytes(`accessList[${i}].address`, item.address, 20),
    item.storageKeys.map((key, j) => requireHexBytes(`accessList[${i}].storageKeys[${j}]`, key, 32)),
  ]);
  const maxFeePerGas = requireUint("maxFeePerGas", tx.maxFeePerGas, MAX_UINT256);
  const maxPriorityFeePerGas = requireUint("maxPriorityFeePerGas", tx.maxPriorityFeePerGas, MAX_UINT256);
  if (maxPriorityFeePerGas > maxFeePerGas) {
    throw new InvalidTransactionFieldError({ field: "maxPriorityFeePerGas", reason: "exceeds maxFeePerGas" });
  }
  const chainId = requireUint("chainId", tx.chainId, MAX_UINT64);
  if (chainId === 0n) throw new InvalidTransactionFieldError({ field: "chainId", reason: "must be non-zero" });
  return [
    encodeRlpUint(chainId),
    encodeRlpUint(requireUint("nonce", tx.nonce, MAX_UINT64)),
    encodeRlpUint(maxPriorityFeePerGas),
    encodeRlpUint(maxFeePerGas),
    encodeRlpUint(requireUint("gas", tx.gas, MAX_UINT64)),
    to,
    encodeRlpUint(requireUint("value", tx.value ?? 0n, MAX_UINT256)),
    tx.data === undefined ? "0x" : requireHexBytes("data", tx.data),
    accessList,
    requireHexBytes("descriptor", tx.descriptor ?? MLDSA87_DESCRIPTOR, 3),
  ];
}

/**
 * Serializes a `0x51` transaction: `0x51 ‖ rlp([chainId, nonce, maxPriorityFeePerGas,
 * maxFeePerGas, gas, to, value, data, accessList, descriptor])` when unsigned, with
 * `signature, publicKey` appended to the list when both are given.
 */
export function serializeQuantumTransaction(tx: QuantumTransactionSerializable): SerializedQuantumTransaction {
  const fields = unsignedFields(tx);
  if (tx.signature !== undefined || tx.publicKey !== undefined) {
    if (tx.signature === undefined || tx.publicKey === undefined) {
      throw new InvalidTransactionFieldError({
        field: tx.signature === undefined ? "signature" : "publicKey",
        reason: "is required when the other half of the signature is given",
      });
    }
    fields.push(requireHexBytes("signature", tx.signature, MLDSA87_SIGNATURE_LENGTH));
    fields.push(requireHexBytes("publicKey", tx.publicKey, MLDSA87_PUBLIC_KEY_LENGTH));
  }
  return concatHex([QUANTUM_TX_TYPE_HEX, toRlp(fields, "hex")]) as SerializedQuantumTransaction;
}

/** Signing hash: `keccak256(0x51 ‖ rlp(unsigned fields))`; signature fields are ignored. */
export function signingHash(tx: QuantumTransactionSerializable): Hex {
  const { signature: _signature, publicKey: _publicKey, ...unsigned } = tx;
  return keccak256(serializeQuantumTransaction(unsigned));
}

/** Transaction hash of a raw signed transaction: `keccak256(raw)`. */
export function getQuantumTransactionHash(serialized: Hex): Hex {
  return keccak256(serialized);
}

function decodeUint(field: string, value: unknown, max: bigint): bigint {
  if (typeof value !== "string") throw new InvalidSerializedTransactionError({ reason: `${field} is a list` });
  if (value === "0x") return 0n;
  if (value.startsWith("0x00")) throw new InvalidSerializedTransactionError({ reason: `${field} has leading zeros` });
  const big = hexToBigInt(value as Hex);
  if (big > max) throw new InvalidSerializedTransactionError({ reason: `${field} is out of range` });
  return big;
}

function decodeBytes(field: string, value: unknown, length?: number): Hex {
  if (typeof value !== "string") throw new InvalidSerializedTransactionError({ reason: `${field} is a list` });
  if (length !== undefined && (value.length - 2) / 2 !== length) {
    throw new InvalidSerializedTransactionError({ reason: `${field} must be ${length} bytes` });
  }
  return value.toLowerCase() as Hex;
}

function decodeAccessList(value: unknown): AccessList {
  if (!Array.isArray(value)) throw new InvalidSerializedTransactionError({ reason: "accessList is not a list" });
  return value.map((item, i) => {
    if (!Array.isArray(item) || item.length !== 2 || !Array.isArray(item[1])) {
      throw new InvalidSerializedTransactionError({ reason: `accessList[${i}] is malformed` });
    }
    return {
      address: decodeBytes(`accessList[${i}].address`, item[0], 20) as Address,
      storageKeys: (item[1] as unknown[]).map((key, j) => decodeBytes(`accessList[${i}].storageKeys[${j}]`, key, 32)),
    };
  });
}

/**
 * Parses a serialized `0x51` transaction, signed (12 fields) or unsigned (10 fields).
 * Strict: wrong type byte, non-canonical RLP, wrong lengths, trailing bytes or an unknown
 * descriptor throw `InvalidSerializedTransactionError`. Does not verify the signature.
 */
export function parseQuantumTransaction(serialized: Hex | Uint8Array): ParsedQuantumTransaction {
  const bytes = bytesFromInput(serialized);
  if (!bytes || bytes.length === 0) throw new InvalidSerializedTransactionError({ reason: "not hex bytes" });
  if (bytes[0] !== QUANTUM_TX_TYPE) {
    throw new InvalidSerializedTransactionError({
      reason: `unsupported transaction type 0x${(bytes[0] ?? 0).toString(16).padStart(2, "0")}`,
    });
  }
  let decoded: unknown;
  try {
    decoded = fromRlp(bytes.subarray(1), "hex");
  } catch (cause) {
    throw new InvalidSerializedTransactionError({ reason: "malformed RLP", cause });
  }
  if (!Array.isArray(decoded) || (decoded.length !== 10 && decoded.length !== 12)) {
    throw new InvalidSerializedTransactionError({ reason: "expected a list of 10 (unsigned) or 12 (signed) fields" });
  }
  const f = decoded as unknown[];
  const toRaw = decodeBytes("to", f[5]);
  if (toRaw !== "0x" && toRaw.length !== 42) throw new InvalidSerializedTransactionError({ reason: "to must be empty or 20 bytes" });
  const chainId = decodeUint("chainId", f[0], MAX_UINT64);
  const nonce = decodeUint("nonce", f[1], MAX_UINT64);
  if (chainId > BigInt(Number.MAX_SAFE_INTEGER) || nonce > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new InvalidSerializedTransactionError({ reason: "chainId or nonce beyond 2^53" });
  }
  if (chainId === 0n) throw new InvalidSerializedTransactionError({ reason: "chainId is zero" });
  const descriptor = decodeBytes("descriptor", f[9], 3);
  if (descriptor !== MLDSA87_DESCRIPTOR) {
    throw new InvalidSerializedTransactionError({ reason: `unsupported descriptor ${descriptor}` });
  }
  const unsigned: QuantumTransactionUnsigned = {
    type: "quantum",
    chainId: Number(chainId),
    nonce: Number(nonce),
    maxPriorityFeePerGas: decodeUint("maxPriorityFeePerGas", f[2], MAX_UINT256),
    maxFeePerGas: decodeUint("maxFeePerGas", f[3], MAX_UINT256),
    gas: decodeUint("gas", f[4], MAX_UINT64),
    to: toRaw === "0x" ? null : (toRaw as Address),
    value: decodeUint("value", f[6], MAX_UINT256),
    data: decodeBytes("data", f[7]),
    accessList: decodeAccessList(f[8]),
    descriptor,
  };
  if (unsigned.maxPriorityFeePerGas > unsigned.maxFeePerGas) {
    throw new InvalidSerializedTransactionError({ reason: "maxPriorityFeePerGas exceeds maxFeePerGas" });
  }
  let result: ParsedQuantumTransaction = unsigned;
  if (f.length === 12) {
    const signature = decodeBytes("signature", f[10], MLDSA87_SIGNATURE_LENGTH);
    const publicKey = decodeBytes("publicKey", f[11], MLDSA87_PUBLIC_KEY_LENGTH);
    result = { ...unsigned, signature, publicKey, from: addressFromPublicKey(publicKey), hash: keccak256(bytes) };
  }
  // One transaction, one encoding: viem's decoder refuses non-canonical RLP (length
  // prefixes, single bytes, list bounds, trailing bytes), integers are checked for leading
  // zeros above and fixed-size fields for their length, so equal fields imply equal bytes
  // and one hash. src/protocol/transaction.test.ts pins this.
  return result;
}

export function isSignedQuantumTransaction(tx: ParsedQuantumTransaction): tx is QuantumTransactionSigned {
  return "signature" in tx && typeof tx.signature === "string";
}
