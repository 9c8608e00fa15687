import { describe, expect, it } from "vitest";
import { NATIVE_SANDBOX, pendingTransfer, sandboxFields, type Tampering, type TransferFields } from "../../../test/signer-double";
import { refusedFields as refusal } from "../../../test/refusal";
import type { StoredKey } from "../keystore/format";
import { readTransfer } from "./read-transfer";
import { verifySigningRequest } from "./verify-signing-request";

const SOURCE = "0x00000000000000000000000000000000000050c1";
const ORIGINAL_ID = "0193a5c0-0000-7000-8000-0000000000a1";
const KEY = { address: SOURCE } as StoredKey;
const FEE = { gasLimit: 21_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };
const RAISED = { gasLimit: 21_000n, maxFeePerGas: 2_250_000_000n, maxPriorityFeePerGas: 1_125_000_000n };

const fields = (overrides: Partial<TransferFields> = {}) =>
  sandboxFields({ id: "0193a5c0-0000-7000-8000-0000000000b2", sourceAddress: SOURCE, fee: RAISED, ...overrides });
/** The original as `GET /v1/transactions/{id}` answers it: BROADCASTING, the lower fee caps. */
const original = (overrides: Record<string, unknown> = {}) => {
  const { signingRequest: _request, ...record } = pendingTransfer(sandboxFields({ id: ORIGINAL_ID, sourceAddress: SOURCE, fee: FEE }));
  return { ...record, status: "BROADCASTING", replacesTransactionId: null, ...overrides };
};
const replacement = (f: TransferFields = fields(), tamper: Tampering = {}) => ({
  ...pendingTransfer(f, tamper),
  type: "REPLACEMENT",
  replacesTransactionId: ORIGINAL_ID,
});
const read = (transaction: Record<string, unknown>, originalRecord: unknown = original()) =>
  verifySigningRequest(
    readTransfer({ transaction, assets: [NATIVE_SANDBOX], findKey: (a) => (a === SOURCE ? KEY : undefined), original: originalRecord }),
  );

describe("a REPLACEMENT against its original", () => {
  it("accepts the same transfer with both fee caps raised, and says what it replaces", () => {
    const verified = read(replacement());
    expect(verified.type).toBe("REPLACEMENT");
    expect(verified.replaces).toEqual({ id: ORIGINAL_ID, type: "TRANSFER", status: "BROADCASTING", fee: FEE });
  });

  it("refuses any difference but the fee caps, naming the field", () => {
    const other = "0x000000000000000000000000000000000000e711";
    expect(refusal(() => read(replacement(fields({ destinationAddress: other }))))).toEqual(["destinationAddress"]);
    expect(refusal(() => read(replacement(fields({ amount: 2n * 10n ** 18n }))))).toEqual(["amount"]);
    expect(refusal(() => read(replacement(fields({ nonce: 8 }))))).toEqual(["nonce"]);
    expect(refusal(() => read(replacement(fields({ fee: { ...RAISED, gasLimit: 50_000n } }))))).toEqual(["fee.gasLimit"]);
    expect(refusal(() => read(replacement(), original({ assetId: "0193a5c0-0000-7000-8000-00000000700c" })))).toEqual(["assetId"]);
    expect(refusal(() => read(replacement(), original({ sourceAddress: other })))).toEqual(["sourceAddress"]);
    expect(refusal(() => read(replacement(), original({ id: "0193a5c0-0000-7000-8000-0000000000ff" })))).toEqual(["replacesTransactionId"]);
    expect(refusal(() => read(replacement(), original({ type: "DEPOSIT" })))).toEqual(["replacesTransactionId"]);
    expect(refusal(() => read(replacement(), original({ deployment: { templateId: "x", constructorArgs: {} } })))).toEqual(["deployment"]);
  });

  it("refuses fee caps that do not rise", () => {
    expect(refusal(() => read(replacement(fields({ fee: FEE }))))).toEqual(["fee.maxFeePerGas", "fee.maxPriorityFeePerGas"]);
    expect(refusal(() => read(replacement(fields({ fee: { ...RAISED, maxPriorityFeePerGas: FEE.maxPriorityFeePerGas } }))))).toEqual([
      "fee.maxPriorityFeePerGas",
    ]);
  });

  it("refuses without its original, with a malformed one, and bytes that differ from its own record", () => {
    expect(refusal(() => readTransfer({ transaction: replacement(), assets: [NATIVE_SANDBOX], findKey: () => KEY }))).toEqual([
      "replacesTransactionId",
    ]);
    expect(refusal(() => read({ ...replacement(), replacesTransactionId: null }))).toEqual(["replacesTransactionId"]);
    expect(refusal(() => read(replacement(), { id: ORIGINAL_ID }))).toEqual(["replacesTransactionId"]);
    // The record matches the original; the bytes to sign pay more.
    expect(refusal(() => read(replacement(fields(), { amount: 9n * 10n ** 18n })))).toEqual(["amount"]);
  });
});
