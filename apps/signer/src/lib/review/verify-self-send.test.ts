import { buildQuantumTransfer, erc20TransferCalldata, signingHash } from "@qc/chain";
import { describe, expect, it } from "vitest";
import { pendingTransfer, sandboxFields, type Tampering } from "../../../test/signer-double";
import { refusedFields as refusal } from "../../../test/refusal";
import type { StoredKey } from "../keystore/format";
import { readSelfSend } from "./read-self-send";
import { verifySelfSendRequest } from "./verify-self-send";

const SOURCE = "0x00000000000000000000000000000000000050c1";
const OTHER = "0x000000000000000000000000000000000000e711";
const KEY = { address: SOURCE } as StoredKey;

/** A NONCE_FILL or CANCELLATION record as the service sends it: zero value from the source to itself, or `tamper`ed bytes. */
function selfSend(type: "NONCE_FILL" | "CANCELLATION", tamper: Tampering = {}, record: Record<string, unknown> = {}) {
  const fields = sandboxFields({
    id: "0193a5c0-0000-7000-8000-000000000f11",
    sourceAddress: SOURCE,
    destinationAddress: SOURCE,
    amount: 0n,
  });
  return { ...pendingTransfer(fields, tamper), type, assetId: null, replacesTransactionId: null, ...record };
}
const verify = (transaction: Record<string, unknown>) =>
  verifySelfSendRequest(readSelfSend({ transaction, findKey: (address) => (address === SOURCE ? KEY : undefined) }));

describe("verifySelfSendRequest (NONCE_FILL, CANCELLATION)", () => {
  it("accepts zero value from the source to itself with no data, and signs its own hash", () => {
    for (const type of ["NONCE_FILL", "CANCELLATION"] as const) {
      const verified = verify(selfSend(type));
      expect(verified.destinationAddress).toBe(SOURCE);
      const ours = buildQuantumTransfer({
        chainId: 20804,
        nonce: 7,
        maxFeePerGas: 2_000_000_000n,
        maxPriorityFeePerGas: 1_000_000_000n,
        gas: 21_000n,
        to: SOURCE,
        amount: 0n,
      });
      expect(verified.signingHash).toBe(signingHash(ours));
    }
    // A record that leaves the destination out is read as the source itself.
    expect(verify(selfSend("NONCE_FILL", {}, { destinationAddress: null })).destinationAddress).toBe(SOURCE);
  });

  it("refuses bytes that pay someone, move value or call anything, naming the field", () => {
    for (const type of ["NONCE_FILL", "CANCELLATION"] as const) {
      expect(refusal(() => verify(selfSend(type, { destinationAddress: OTHER })))).toEqual(["destinationAddress"]);
      expect(refusal(() => verify(selfSend(type, { amount: 1n })))).toEqual(["amount"]);
      expect(refusal(() => verify(selfSend(type, { data: erc20TransferCalldata({ to: OTHER, amount: 5n }) })))).toEqual(["data"]);
      expect(refusal(() => verify(selfSend(type, { nonce: 8 })))).toEqual(["nonce"]);
    }
  });

  it("refuses a record that says it moves anything, or is not a self-send", () => {
    expect(refusal(() => verify(selfSend("CANCELLATION", {}, { destinationAddress: OTHER })))).toEqual(["destinationAddress"]);
    expect(refusal(() => verify(selfSend("NONCE_FILL", {}, { amount: "5" })))).toEqual(["amount"]);
    expect(refusal(() => verify(selfSend("NONCE_FILL", {}, { type: "TRANSFER" })))).toEqual(["type"]);
    expect(refusal(() => verify(selfSend("NONCE_FILL", {}, { sourceAddress: OTHER, destinationAddress: OTHER })))).toEqual([
      "sourceAddress",
    ]);
  });
});
