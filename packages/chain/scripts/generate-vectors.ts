// Regenerates packages/chain/vectors/*.json: `pnpm --filter @qc/chain vectors`.
// The vectors are checked by test/vectors.test.ts against independent code paths
// (@theqrl/mldsa87 for keys, node:crypto SHAKE256 for addresses, a local RLP encoder for
// signing hashes). Regenerate only on a deliberate protocol change.
import { writeFileSync } from "node:fs";
import { bytesToHex, keccak256, stringToBytes, type Hex } from "viem";
import {
  addressFromPublicKey,
  generateKeyPair,
  ownershipProofMessage,
  serializeQuantumTransaction,
  signingHash,
  signOwnershipProof,
  signQuantumTransaction,
  type QuantumTransactionSerializable,
} from "../src/index";

const seeds: Hex[] = [
  `0x${"00".repeat(32)}`,
  bytesToHex(Uint8Array.from({ length: 32 }, (_, i) => i)),
  keccak256(stringToBytes("quantum-custody test vector 3")),
];

const keys = seeds.map((seed) => {
  const { publicKey, secretKey } = generateKeyPair(Uint8Array.from(Buffer.from(seed.slice(2), "hex")));
  return { seed, publicKey: bytesToHex(publicKey), secretKey: bytesToHex(secretKey), address: addressFromPublicKey(publicKey) };
});

type JsonTx = Record<string, unknown>;
const toJson = (tx: QuantumTransactionSerializable): JsonTx =>
  JSON.parse(JSON.stringify(tx, (_k, v) => (typeof v === "bigint" ? v.toString() : v)));

const unsignedCases: { name: string; tx: QuantumTransactionSerializable }[] = [
  {
    name: "native transfer",
    tx: {
      chainId: 20804,
      nonce: 0,
      maxPriorityFeePerGas: 1_000_000_000n,
      maxFeePerGas: 2_200_000_000n,
      gas: 21_000n,
      to: "0x1111111111111111111111111111111111111111",
      value: 1_000_000_000_000_000_000n,
      data: "0x",
      accessList: [],
    },
  },
  {
    name: "erc20 transfer on mainnet",
    tx: {
      chainId: 20803,
      nonce: 7,
      maxPriorityFeePerGas: 1n,
      maxFeePerGas: 30_000_000_000n,
      gas: 65_000n,
      to: "0x2222222222222222222222222222222222222222",
      value: 0n,
      data: "0xa9059cbb0000000000000000000000003333333333333333333333333333333333333333000000000000000000000000000000000000000000000000000000000000002a",
      accessList: [],
    },
  },
  {
    name: "contract creation with access list",
    tx: {
      chainId: 20804,
      nonce: 127,
      maxPriorityFeePerGas: 0n,
      maxFeePerGas: 128n,
      gas: 1_000_000n,
      to: null,
      value: 0n,
      data: "0x6080604052",
      accessList: [
        {
          address: "0x4444444444444444444444444444444444444444",
          storageKeys: [`0x${"00".repeat(31)}01`, `0x${"ff".repeat(32)}`],
        },
      ],
    },
  },
  {
    name: "extreme values",
    tx: {
      chainId: 20804,
      nonce: Number.MAX_SAFE_INTEGER,
      maxPriorityFeePerGas: 2n ** 256n - 1n,
      maxFeePerGas: 2n ** 256n - 1n,
      gas: 2n ** 64n - 1n,
      to: "0x000000000000000000000000000000000000dead",
      value: 2n ** 256n - 1n,
      data: "0x00",
      accessList: [],
    },
  },
];

const signingHashes = unsignedCases.map(({ name, tx }) => ({
  name,
  transaction: toJson(tx),
  unsignedSerialized: serializeQuantumTransaction(tx),
  signingHash: signingHash(tx),
}));

const signed = unsignedCases.slice(0, 2).map(({ name, tx }, i) => {
  const key = keys[i + 1]!;
  const result = signQuantumTransaction({ transaction: tx, secretKey: key.secretKey, deterministic: true });
  return {
    name: `${name} signed deterministically by key ${i + 1}`,
    transaction: toJson(tx),
    keyIndex: i + 1,
    signingHash: result.signingHash,
    signature: result.signature,
    raw: result.serializedTransaction,
    hash: result.hash,
    from: result.from,
  };
});

const ownership = [
  { tenantId: "0190f5c4-7d3a-7b2e-9c11-2b5e6f7a8b9c", keyIndex: 1 },
  { tenantId: "tenant-b", keyIndex: 2 },
].map(({ tenantId, keyIndex }) => {
  const key = keys[keyIndex]!;
  return {
    tenantId,
    keyIndex,
    address: key.address,
    message: ownershipProofMessage(tenantId, key.address),
    signature: signOwnershipProof({ tenantId, address: key.address, secretKey: key.secretKey, deterministic: true }),
  };
});

const out = (name: string, body: unknown) => {
  writeFileSync(new URL(`../vectors/${name}`, import.meta.url), `${JSON.stringify(body, null, 2)}\n`);
  console.log(`wrote vectors/${name}`);
};

out("keys.json", {
  description: "ML-DSA-87 (FIPS 204) seed -> keys -> address. address = SHAKE256(descriptor || publicKey)[0:20].",
  descriptor: "0x010000",
  vectors: keys,
});
out("signing-hashes.json", {
  description: "Unsigned 0x51 transaction -> 0x51 || rlp(unsigned fields) -> signing hash keccak256. Integers are decimal strings.",
  fieldOrder: ["chainId", "nonce", "maxPriorityFeePerGas", "maxFeePerGas", "gas", "to", "value", "data", "accessList", "descriptor"],
  vectors: signingHashes,
});
out("transactions.json", {
  description: "Signed 0x51 transactions (deterministic ML-DSA-87, context QUANTUM-TX-v1). hash = keccak256(raw). Keys from keys.json.",
  context: "QUANTUM-TX-v1",
  vectors: signed,
});
out("ownership-proofs.json", {
  description: "Ownership proofs: deterministic ML-DSA-87, context QUANTUM-OWNERSHIP-v1, over the UTF-8 message. Keys from keys.json.",
  context: "QUANTUM-OWNERSHIP-v1",
  vectors: ownership,
});
