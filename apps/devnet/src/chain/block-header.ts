import { RLP } from "@ethereumjs/rlp";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { bytesToHex, hexToBytes, keccak256, type Hex } from "viem";
import { QUANTUM_TX_TYPE } from "@qc/chain";
import type { DevnetBlock, DevnetReceipt, MinedTransaction } from "./types";

export const EMPTY_UNCLES_HASH: Hex = keccak256(RLP.encode([]));
export const ZERO_HASH: Hex = `0x${"00".repeat(32)}`;
const EMPTY_NONCE = new Uint8Array(8);

const uint = (value: bigint): Uint8Array => {
  if (value === 0n) return new Uint8Array();
  const hex = value.toString(16);
  return hexToBytes(`0x${hex.length % 2 ? `0${hex}` : hex}`);
};

/** EIP-2718 typed receipt: `0x51 ‖ rlp([status, cumulativeGasUsed, logsBloom, logs])`. */
export function encodeReceipt(receipt: DevnetReceipt): Uint8Array {
  const body = RLP.encode([
    receipt.status === 1 ? Uint8Array.of(1) : new Uint8Array(),
    uint(receipt.cumulativeGasUsed),
    hexToBytes(receipt.logsBloom),
    receipt.logs.map((log) => [hexToBytes(log.address), log.topics.map((t) => hexToBytes(t)), hexToBytes(log.data)]),
  ]);
  const out = new Uint8Array(body.length + 1);
  out[0] = QUANTUM_TX_TYPE;
  out.set(body, 1);
  return out;
}

/** Root of an empty Merkle-Patricia trie: keccak256(rlp("")). */
export const EMPTY_TRIE_ROOT: Hex = "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421";

/** Ethereum-style ordered trie root: key rlp(index), value the typed encoding. */
export async function orderedTrieRoot(values: Uint8Array[]): Promise<Hex> {
  if (values.length === 0) return EMPTY_TRIE_ROOT;
  const trie = new MerklePatriciaTrie();
  for (const [i, value] of values.entries()) await trie.put(RLP.encode(i), value);
  return bytesToHex(trie.root());
}

export async function transactionsRoot(transactions: Pick<MinedTransaction, "raw">[]): Promise<Hex> {
  return orderedTrieRoot(transactions.map((t) => hexToBytes(t.raw)));
}

export async function receiptsRoot(transactions: Pick<MinedTransaction, "receipt">[]): Promise<Hex> {
  return orderedTrieRoot(transactions.map((t) => encodeReceipt(t.receipt)));
}

type HeaderFields = Omit<DevnetBlock, "hash" | "size" | "transactions" | "preStateRoot" | "marketBaseFeePerGas">;

/** London-shaped header (no withdrawals/blob fields): the hash is keccak256(rlp(header)). */
export function encodeHeader(header: HeaderFields): Uint8Array {
  return RLP.encode([
    hexToBytes(header.parentHash),
    hexToBytes(EMPTY_UNCLES_HASH),
    hexToBytes(header.miner),
    hexToBytes(header.stateRoot),
    hexToBytes(header.transactionsRoot),
    hexToBytes(header.receiptsRoot),
    hexToBytes(header.logsBloom),
    uint(0n),
    uint(header.number),
    uint(header.gasLimit),
    uint(header.gasUsed),
    uint(header.timestamp),
    hexToBytes(header.extraData),
    hexToBytes(header.mixHash),
    EMPTY_NONCE,
    uint(header.baseFeePerGas),
  ]);
}

export function sealBlock(
  header: HeaderFields,
  preStateRoot: Hex,
  transactions: MinedTransaction[],
  marketBaseFeePerGas?: bigint,
): DevnetBlock {
  const encoded = encodeHeader(header);
  const size = BigInt(encoded.length + transactions.reduce((n, t) => n + (t.raw.length - 2) / 2, 0) + 4);
  const block: DevnetBlock = { ...header, hash: keccak256(encoded), size, transactions, preStateRoot };
  if (marketBaseFeePerGas !== undefined && marketBaseFeePerGas !== header.baseFeePerGas) block.marketBaseFeePerGas = marketBaseFeePerGas;
  return block;
}

/**
 * EIP-1559 base fee of the block after `parent`, never below `floor`. It follows the parent's
 * market base fee, not one a `baseFee` fault imposed on it (see `DevnetBlock.marketBaseFeePerGas`).
 */
export function nextBaseFee(
  parent: Pick<DevnetBlock, "gasUsed" | "gasLimit" | "baseFeePerGas" | "marketBaseFeePerGas">,
  floor: bigint,
): bigint {
  const target = parent.gasLimit / 2n;
  const parentFee = parent.marketBaseFeePerGas ?? parent.baseFeePerGas;
  let fee = parentFee;
  if (parent.gasUsed > target) {
    const delta = (parentFee * (parent.gasUsed - target)) / target / 8n;
    fee = parentFee + (delta > 0n ? delta : 1n);
  } else if (parent.gasUsed < target) {
    fee = parentFee - (parentFee * (target - parent.gasUsed)) / target / 8n;
  }
  return fee < floor ? floor : fee;
}

/** OR of 256-byte blooms. */
export function mergeBlooms(blooms: Hex[]): Hex {
  const out = new Uint8Array(256);
  for (const bloom of blooms) {
    const bytes = hexToBytes(bloom);
    for (let i = 0; i < 256; i++) out[i] = (out[i] ?? 0) | (bytes[i] ?? 0);
  }
  return bytesToHex(out);
}
