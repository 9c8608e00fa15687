import { bytesToHex, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { InvalidAddressError } from "../errors/address";
import { InvalidTransactionFieldError } from "../errors/transaction";
import { createVerifyPool } from "../verify/verify-pool";
import {
  addressBookApprovalHash,
  addressBookApprovalLines,
  approvalHash,
  approvalLines,
  approverKeyProofHash,
  signApproval,
  signApproverKeyProof,
  verifyApproval,
  verifyApproverKeyProof,
  type AddressBookApprovalFields,
  type ApprovalFields,
} from "./approval";
import { APPROVAL_CONTEXT, APPROVER_KEY_CONTEXT, OWNERSHIP_PROOF_CONTEXT, TRANSACTION_SIGNATURE_CONTEXT } from "./constants";
import { generateKeyPair, mlDsa87 } from "./keys";
import { signQuantumSigningHash } from "./signing";

// The fixed vector quoted in docs/approvals.md: change it only with the protocol's version.
const tenantId = "0190f5c4-7d3a-7b2e-9c11-2b5e6f7a8b9c";
const userId = "0190f5c6-aaaa-7bbb-8ccc-dddddddddddd";
const transfer: ApprovalFields = {
  tenantId,
  transactionId: "0190f5c5-1111-7222-8333-444455556666",
  chainId: 20804,
  sourceAddress: "0x1111111111111111111111111111111111111111",
  destinationAddress: "0xABCDEFabcdefABCDEFabcdefABCDEFabcdefABCD".toLowerCase(),
  assetId: "0190f5c7-3e1d-7f00-9a2b-5c6d7e8f9a0b",
  amount: "1500000000000000000",
  type: "TRANSFER",
};
const TRANSFER_LINES = [
  "QUANTUM-APPROVAL-v1",
  "0190f5c4-7d3a-7b2e-9c11-2b5e6f7a8b9c",
  "0190f5c5-1111-7222-8333-444455556666",
  "20804",
  "0x1111111111111111111111111111111111111111",
  "0xabcdefabcdefabcdefabcdefabcdefabcdefabcd",
  "0190f5c7-3e1d-7f00-9a2b-5c6d7e8f9a0b",
  "1500000000000000000",
  "TRANSFER",
];
const TRANSFER_HASH = "0x7f9b12ad2d7ef4b679e5434341ac46c4cfe093285c538b6a7bbbe3114948a934";
const deploy: ApprovalFields = { ...transfer, destinationAddress: null, assetId: null, amount: "0", type: "CONTRACT_DEPLOY" };
const DEPLOY_HASH = "0xabbb4b19604c144b7898b634819453c3edb1b5c7cac913eee4b7e0bf858cf000";
const KEY_PROOF_HASH = "0x8c25c55265c7c3f50dacc6eaa5875f781d408e56cc7396e2b1548a91da312ffa";

let publicKey: Hex;
let secretKey: Uint8Array;
let signature: Hex;
let proof: Hex;

beforeAll(() => {
  const keys = generateKeyPair();
  publicKey = bytesToHex(keys.publicKey);
  secretKey = keys.secretKey;
  signature = signApproval(TRANSFER_HASH, secretKey);
  proof = signApproverKeyProof({ tenantId, userId, secretKey });
});

const flipHex = (hex: Hex, at: number): Hex => `${hex.slice(0, at)}${hex[at] === "0" ? "1" : "0"}${hex.slice(at + 1)}` as Hex;

describe("approval hash", () => {
  test("the fixed vector: lines and hash", () => {
    expect(approvalLines(transfer)).toEqual(TRANSFER_LINES);
    expect(approvalHash(transfer)).toBe(TRANSFER_HASH);
  });

  test("a contract deployment has empty destination and asset lines", () => {
    expect(approvalLines(deploy)).toEqual([...TRANSFER_LINES.slice(0, 5), "", "", "0", "CONTRACT_DEPLOY"]);
    expect(approvalHash(deploy)).toBe(DEPLOY_HASH);
  });

  test("addresses are written lower-case whatever case they arrive in (EIP-55 or upper)", () => {
    const upper = { ...transfer, destinationAddress: "0xABCDEFABCDEFABCDEFABCDEFABCDEFABCDEFABCD" };
    expect(approvalHash(upper)).toBe(TRANSFER_HASH);
  });

  test.each([
    ["tenantId", { tenantId: "other" }],
    ["transactionId", { transactionId: "0190f5c5-1111-7222-8333-444455556667" }],
    ["chainId", { chainId: 20803 }],
    ["sourceAddress", { sourceAddress: "0x1111111111111111111111111111111111111112" }],
    ["destinationAddress", { destinationAddress: "0xabcdefabcdefabcdefabcdefabcdefabcdefabce" }],
    ["destinationAddress none", { destinationAddress: null }],
    ["assetId", { assetId: "0190f5c7-3e1d-7f00-9a2b-5c6d7e8f9a0c" }],
    ["assetId none", { assetId: null }],
    ["amount", { amount: "1500000000000000001" }],
    ["type", { type: "CONTRACT_DEPLOY" }],
  ] as const)("every field changes the hash: %s", (_name, change) => {
    expect(approvalHash({ ...transfer, ...change })).not.toBe(TRANSFER_HASH);
  });

  test.each([
    ["a line break in an id", { tenantId: `${tenantId}\nx` }, InvalidTransactionFieldError],
    ["a carriage return in the type", { type: "TRANSFER\r" }, InvalidTransactionFieldError],
    ["an empty asset id", { assetId: "" }, InvalidTransactionFieldError],
    ["a fractional amount", { amount: "1.5" }, InvalidTransactionFieldError],
    ["a leading zero", { amount: "01" }, InvalidTransactionFieldError],
    ["a negative amount", { amount: "-1" }, InvalidTransactionFieldError],
    ["a numeric amount", { amount: 1 as unknown as string }, InvalidTransactionFieldError],
    ["a fractional chain id", { chainId: 1.5 }, InvalidTransactionFieldError],
    ["a bad source address", { sourceAddress: "0x1234" }, InvalidAddressError],
    ["a bad checksum", { destinationAddress: "0xAbcdefabcdefabcdefabcdefabcdefabcdefabcd" }, InvalidAddressError],
    ["an empty destination (none is null)", { destinationAddress: "" }, InvalidAddressError],
  ] as const)("refuses %s rather than hash something ambiguous", (_name, change, error) => {
    expect(() => approvalHash({ ...transfer, ...change })).toThrow(error);
  });
});

describe("approval signature", () => {
  test("verifies over its hash, with hex in any form or bytes", () => {
    expect(verifyApproval({ approvalHash: TRANSFER_HASH, signature, publicKey })).toBe(true);
    expect(verifyApproval({ approvalHash: TRANSFER_HASH.slice(2).toUpperCase(), signature: signature.slice(2), publicKey })).toBe(true);
  });

  test.each([
    ["another hash", () => ({ approvalHash: DEPLOY_HASH })],
    ["a flipped hash bit", () => ({ approvalHash: flipHex(TRANSFER_HASH, 10) })],
    ["a flipped signature bit", () => ({ signature: flipHex(signature, 10) })],
    ["a truncated signature", () => ({ signature: signature.slice(0, -2) })],
    ["a truncated hash", () => ({ approvalHash: TRANSFER_HASH.slice(0, -2) })],
    ["another key", () => ({ publicKey: bytesToHex(generateKeyPair(new Uint8Array(32)).publicKey) })],
    ["a non-hex signature", () => ({ signature: `0x${"zz".repeat(4627)}` })],
    ["a number", () => ({ signature: 42 as unknown as string })],
  ] as const)("refuses %s", (_name, change) => {
    expect(verifyApproval({ approvalHash: TRANSFER_HASH, signature, publicKey, ...change() })).toBe(false);
  });

  test("a transaction signature over the same 32 bytes is not an approval, nor the reverse", () => {
    const txSignature = signQuantumSigningHash({ signingHash: TRANSFER_HASH, secretKey });
    expect(verifyApproval({ approvalHash: TRANSFER_HASH, signature: txSignature, publicKey })).toBe(false);
    const message = new Uint8Array(Buffer.from(TRANSFER_HASH.slice(2), "hex"));
    expect(mlDsa87.verify(Buffer.from(signature.slice(2), "hex"), message, Buffer.from(publicKey.slice(2), "hex"))).toBe(false);
  });

  test("signApproval refuses anything but a 32-byte hash", () => {
    expect(() => signApproval(TRANSFER_HASH.slice(0, -2) as Hex, secretKey)).toThrow(RangeError);
  });
});

describe("approver key proof", () => {
  test("the fixed vector: keccak256 of 'QUANTUM-APPROVER-KEY-v1\\n<tenantId>\\n<userId>'", () => {
    expect(approverKeyProofHash(tenantId, userId)).toBe(KEY_PROOF_HASH);
  });

  test("verifies for its member, and only for them", () => {
    expect(verifyApproverKeyProof({ tenantId, userId, publicKey, proof })).toBe(true);
    expect(verifyApproverKeyProof({ tenantId, userId: "0190f5c6-aaaa-7bbb-8ccc-ddddddddddde", publicKey, proof })).toBe(false);
    expect(verifyApproverKeyProof({ tenantId: "other", userId, publicKey, proof })).toBe(false);
    expect(verifyApproverKeyProof({ tenantId, userId: `${userId}\n`, publicKey, proof })).toBe(false);
    expect(verifyApproverKeyProof({ tenantId, userId, publicKey, proof: flipHex(proof, 12) })).toBe(false);
  });

  test("a proof is not an approval and an approval is not a proof, over the same hash", () => {
    expect(verifyApproval({ approvalHash: KEY_PROOF_HASH, signature: proof, publicKey })).toBe(false);
    const approvalOverProofHash = signApproval(KEY_PROOF_HASH, secretKey);
    expect(verifyApproverKeyProof({ tenantId, userId, publicKey, proof: approvalOverProofHash })).toBe(false);
  });
});

describe("on the verify pool (as the service checks them)", () => {
  const pool = createVerifyPool({ size: 1 });
  afterAll(() => pool.close());

  test("signingHash = approvalHash with the approval context verifies what signApproval signed", async () => {
    const good = { publicKey, signature, signingHash: TRANSFER_HASH, context: APPROVAL_CONTEXT };
    expect(await pool.verify(good)).toBe(true);
    expect(await pool.verify({ ...good, signingHash: DEPLOY_HASH })).toBe(false);
    expect(await pool.verify({ ...good, context: TRANSACTION_SIGNATURE_CONTEXT })).toBe(false);
    expect(await pool.verify({ ...good, context: OWNERSHIP_PROOF_CONTEXT })).toBe(false);
  });

  test("signingHash = approverKeyProofHash with the key context verifies an enrollment proof", async () => {
    const good = { publicKey, signature: proof, signingHash: approverKeyProofHash(tenantId, userId), context: APPROVER_KEY_CONTEXT };
    expect(await pool.verify(good)).toBe(true);
    expect(await pool.verify({ ...good, context: APPROVAL_CONTEXT })).toBe(false);
  });
});

describe("address-book approval hash (CONTRACT §16)", () => {
  const entry: AddressBookApprovalFields = {
    tenantId,
    entryId: "0194f2c7-1a2b-7c3d-8e4f-5a6b7c8d9e0f",
    networkCode: "QUANTUM_SANDBOX",
    address: "0x2B5AD5C4795C026514F8317C7A215E218DCCD6CF",
    label: "Exchange deposit (Acme)",
    assetIds: ["0190f5c7-3e1d-7f00-9a2b-5c6d7e8f9a0c", "0190f5c7-3e1d-7f00-9a2b-5c6d7e8f9a0b"],
    createdAt: "2026-11-21T10:00:00.000Z",
  };
  const ENTRY_LINES = [
    "QUANTUM-ADDRESS-BOOK-APPROVAL-v1",
    tenantId,
    "0194f2c7-1a2b-7c3d-8e4f-5a6b7c8d9e0f",
    "QUANTUM_SANDBOX",
    "0x2b5ad5c4795c026514f8317c7a215e218dccd6cf",
    "Exchange deposit (Acme)",
    "0190f5c7-3e1d-7f00-9a2b-5c6d7e8f9a0b,0190f5c7-3e1d-7f00-9a2b-5c6d7e8f9a0c",
    "2026-11-21T10:00:00.000Z",
  ];
  const ENTRY_HASH = "0xc9bec76f6e60ef87d039ca91e61adfeab86e9d985ef66c196bf394c5bd91238e";

  test("the fixed vector: lines (asset ids sorted, address lower-case) and hash", () => {
    expect(addressBookApprovalLines(entry)).toEqual(ENTRY_LINES);
    expect(addressBookApprovalHash(entry)).toBe(ENTRY_HASH);
    expect(addressBookApprovalLines({ ...entry, assetIds: null })[6]).toBe("");
  });

  test.each([
    ["tenantId", { tenantId: "other" }],
    ["entryId", { entryId: "0194f2c7-1a2b-7c3d-8e4f-5a6b7c8d9e10" }],
    ["networkCode", { networkCode: "QUANTUM_MAINNET" }],
    ["address", { address: "0x2b5ad5c4795c026514f8317c7a215e218dccd6ce" }],
    ["label", { label: "Exchange deposit (Acme)." }],
    ["assetIds", { assetIds: null }],
    ["createdAt", { createdAt: "2026-11-21T10:00:00.001Z" }],
  ] as const)("every field changes the hash: %s", (_name, change) => {
    expect(addressBookApprovalHash({ ...entry, ...change })).not.toBe(ENTRY_HASH);
  });

  test.each([
    ["a line break in the label", { label: "a\nb" }, InvalidTransactionFieldError],
    ["an empty label", { label: "" }, InvalidTransactionFieldError],
    ["a comma in an asset id", { assetIds: ["a,b"] }, InvalidTransactionFieldError],
    ["a bad address", { address: "0x1234" }, InvalidAddressError],
  ] as const)("refuses %s", (_name, change, error) => {
    expect(() => addressBookApprovalHash({ ...entry, ...change })).toThrow(error);
  });

  test("an approval of an entry is no approval of a transfer: the first line separates the domains", () => {
    expect(addressBookApprovalLines(entry)[0]).not.toBe(approvalLines(transfer)[0]);
    const entrySignature = signApproval(addressBookApprovalHash(entry), secretKey);
    expect(verifyApproval({ approvalHash: addressBookApprovalHash(entry), signature: entrySignature, publicKey })).toBe(true);
    expect(verifyApproval({ approvalHash: TRANSFER_HASH, signature: entrySignature, publicKey })).toBe(false);
  });
});
