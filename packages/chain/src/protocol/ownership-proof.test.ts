import { bytesToHex, type Hex } from "viem";
import { beforeAll, describe, expect, test } from "vitest";
import { InvalidAddressError } from "../errors/address";
import { addressFromPublicKey } from "./address";
import { generateKeyPair, mlDsa87 } from "./keys";
import { ownershipProofMessage, signOwnershipProof, verifyOwnershipProof } from "./ownership-proof";

let publicKey: Hex;
let secretKey: Uint8Array;
let address: Hex;
let signature: Hex;
const tenantId = "0190f5c4-7d3a-7b2e-9c11-2b5e6f7a8b9c";

beforeAll(() => {
  const keys = generateKeyPair();
  publicKey = bytesToHex(keys.publicKey);
  secretKey = keys.secretKey;
  address = addressFromPublicKey(keys.publicKey);
  signature = signOwnershipProof({ tenantId, address, secretKey });
});

describe("ownership proof", () => {
  test("message format normalises the address", () => {
    expect(ownershipProofMessage("t1", "0xABCDEFabcdefABCDEFabcdefABCDEFabcdefABCD".toLowerCase().toUpperCase().replace("0X", "0x"))).toBe(
      "quantum-custody:wallet-ownership:v1:t1:0xabcdefabcdefabcdefabcdefabcdefabcdefabcd",
    );
    expect(() => ownershipProofMessage("t1", "nope")).toThrow(InvalidAddressError);
  });

  test("valid proof verifies, also with unprefixed hex, bytes and upper-case address", () => {
    expect(verifyOwnershipProof({ tenantId, address, publicKey, signature })).toBe(true);
    expect(
      verifyOwnershipProof({
        tenantId,
        address: address.slice(2).toUpperCase(),
        publicKey: publicKey.slice(2),
        signature: signature.slice(2),
      }),
    ).toBe(true);
  });

  test.each([
    ["truncated signature", () => ({ signature: signature.slice(0, -2) })],
    ["padded signature", () => ({ signature: `${signature}00` })],
    ["empty signature", () => ({ signature: "0x" })],
    ["non-hex signature", () => ({ signature: `0x${"zz".repeat(4627)}` })],
    ["flipped bit", () => ({ signature: `${signature.slice(0, 10)}${signature[10] === "0" ? "1" : "0"}${signature.slice(11)}` })],
    ["truncated public key", () => ({ publicKey: publicKey.slice(0, -2) })],
    ["other tenant", () => ({ tenantId: "other-tenant" })],
    ["empty tenant", () => ({ tenantId: "" })],
    ["other address", () => ({ address: "0x0000000000000000000000000000000000000001" })],
    ["invalid address", () => ({ address: "0x1234" })],
    ["other public key", () => ({ publicKey: bytesToHex(generateKeyPair(new Uint8Array(32)).publicKey) })],
    ["wrong type", () => ({ signature: 42 as unknown as string })],
  ] as const)("rejects %s", (_name, change) => {
    expect(verifyOwnershipProof({ tenantId, address, publicKey, signature, ...change() })).toBe(false);
  });

  test("signature with the wrong context (or none) fails", () => {
    const message = new TextEncoder().encode(ownershipProofMessage(tenantId, address));
    for (const context of [new TextEncoder().encode("QUANTUM-TX-v1"), new Uint8Array()]) {
      const sig = bytesToHex(mlDsa87.sign(message, secretKey, { context }));
      expect(verifyOwnershipProof({ tenantId, address, publicKey, signature: sig })).toBe(false);
    }
  });

  test("address not derived from the key fails even with a valid signature for that address", () => {
    const other = "0x00000000000000000000000000000000000000ff";
    const sig = signOwnershipProof({ tenantId, address: other, secretKey });
    expect(verifyOwnershipProof({ tenantId, address: other, publicKey, signature: sig })).toBe(false);
  });
});
