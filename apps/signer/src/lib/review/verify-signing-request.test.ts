import { buildQuantumTransfer, serializeQuantumTransaction, signingHash, type QuantumTransactionSerializable } from "@qc/chain";
import { concatHex, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { NATIVE_SANDBOX, pendingTransfer, sandboxFields, type DoubleAsset, type TransferFields } from "../../../test/signer-double";
import { refusedFields as refusal } from "../../../test/refusal";
import type { StoredKey } from "../keystore/format";
import { readTransfer } from "./read-transfer";
import { verifySigningRequest } from "./verify-signing-request";

const SOURCE = "0x00000000000000000000000000000000000050c1";
const KEY = { address: SOURCE } as StoredKey;
const TOKEN: DoubleAsset = {
  ...NATIVE_SANDBOX,
  id: "0193a5c0-0000-7000-8000-00000000700c",
  kind: "TOKEN",
  symbol: "QUSD",
  decimals: 6,
  contractAddress: "0x00000000000000000000000000000000000070c0",
};
const assets = [NATIVE_SANDBOX, TOKEN];

const fields = (overrides: Partial<TransferFields> = {}) =>
  sandboxFields({ id: "0193a5c0-0000-7000-8000-000000000001", sourceAddress: SOURCE, ...overrides });
const read = (transaction: Record<string, unknown>) =>
  readTransfer({ transaction, assets, findKey: (address) => (address === SOURCE ? KEY : undefined) });

/** The record of `fields` with its signing request replaced by `transaction`'s serialization. */
function withUnsigned(base: TransferFields, transaction: QuantumTransactionSerializable | Hex): Record<string, unknown> {
  const record = pendingTransfer(base);
  const unsignedTransaction = typeof transaction === "string" ? transaction : serializeQuantumTransaction(transaction);
  return { ...record, signingRequest: { ...(record.signingRequest as object), unsignedTransaction } };
}

const baseTransaction = (f: TransferFields) =>
  buildQuantumTransfer({
    chainId: f.chainId,
    nonce: f.nonce,
    maxFeePerGas: f.fee.maxFeePerGas,
    maxPriorityFeePerGas: f.fee.maxPriorityFeePerGas,
    gas: f.fee.gasLimit,
    to: f.destinationAddress,
    amount: f.amount,
    token: f.asset.contractAddress,
  });

describe("verifySigningRequest", () => {
  it("accepts a signing request built from the displayed fields and returns its own hash", () => {
    const f = fields();
    const verified = verifySigningRequest(read(pendingTransfer(f)));
    expect(verified.signingHash).toBe(signingHash(baseTransaction(f)));
    expect(verified.tokenCall).toBeNull();
  });

  it("decodes a token transfer's calldata", () => {
    const f = fields({ asset: TOKEN, amount: 2_500_000n });
    expect(verifySigningRequest(read(pendingTransfer(f))).tokenCall).toEqual({
      token: TOKEN.contractAddress,
      recipient: f.destinationAddress,
      amount: 2_500_000n,
    });
  });

  it("names every field that differs", () => {
    const f = fields();
    const record = pendingTransfer(f, { amount: 1n, nonce: 9, fee: { maxPriorityFeePerGas: 2n } });
    expect(refusal(() => verifySigningRequest(read(record)))).toEqual(["nonce", "fee.maxPriorityFeePerGas", "amount"]);
  });

  it("refuses what the comparison of displayed fields alone would not show", () => {
    const f = fields();
    const tx = baseTransaction(f);
    expect(refusal(() => verifySigningRequest(read(withUnsigned(f, { ...tx, data: "0xdeadbeef" }))))).toEqual(["data"]);
    expect(
      refusal(() => verifySigningRequest(read(withUnsigned(f, { ...tx, accessList: [{ address: SOURCE, storageKeys: [] }] })))),
    ).toEqual(["accessList"]);
    expect(refusal(() => verifySigningRequest(read(withUnsigned(f, "0x02c0" as Hex))))).toEqual(["signingRequest.unsignedTransaction"]);
    const signed = serializeQuantumTransaction({ ...tx, signature: `0x${"11".repeat(4627)}`, publicKey: `0x${"22".repeat(2592)}` });
    expect(refusal(() => verifySigningRequest(read(withUnsigned(f, signed))))).toEqual(["signingRequest.unsignedTransaction"]);

    const token = fields({ asset: TOKEN, amount: 5n });
    const tokenTx = baseTransaction(token);
    expect(refusal(() => verifySigningRequest(read(withUnsigned(token, { ...tokenTx, value: 1n }))))).toEqual(["value"]);
    expect(refusal(() => verifySigningRequest(read(withUnsigned(token, { ...tokenTx, to: SOURCE }))))).toEqual(["assetId"]);
    expect(
      refusal(() => verifySigningRequest(read(withUnsigned(token, { ...tokenTx, data: concatHex([tokenTx.data!, "0x00"]) })))),
    ).toEqual(["data"]);

    const record = pendingTransfer(f);
    const request = record.signingRequest as Record<string, string>;
    expect(
      refusal(() => verifySigningRequest(read({ ...record, signingRequest: { ...request, context: "QUANTUM-OWNERSHIP-v1" } }))),
    ).toEqual(["signingRequest.context"]);
    expect(refusal(() => verifySigningRequest(read({ ...record, signingRequest: { ...request, descriptor: "0x020000" } })))).toEqual([
      "signingRequest.descriptor",
    ]);
  });
});

describe("readTransfer", () => {
  it("refuses records it cannot display truthfully, naming the field", () => {
    const record = pendingTransfer(fields());
    expect(refusal(() => read({ ...record, type: "CONTRACT_DEPLOY" }))).toEqual(["type"]);
    expect(refusal(() => read({ ...record, status: "SIGNED" }))).toEqual(["status"]);
    expect(refusal(() => read({ ...record, networkCode: "ETHEREUM" }))).toEqual(["networkCode"]);
    expect(refusal(() => read({ ...record, chainId: 1 }))).toEqual(["chainId"]);
    expect(refusal(() => read({ ...record, assetId: "0193a5c0-0000-7000-8000-0000000000ff" }))).toEqual(["assetId"]);
    expect(refusal(() => read({ ...record, amount: 5 }))).toEqual(["amount"]);
    expect(refusal(() => read({ ...record, amount: "0" }))).toEqual(["amount"]);
    expect(refusal(() => read({ ...record, destinationAddress: "0x1234" }))).toEqual(["destinationAddress"]);
    expect(refusal(() => read({ ...record, fee: { gasLimit: "21000", maxFeePerGas: "1", maxPriorityFeePerGas: "2" } }))).toEqual([
      "fee.maxPriorityFeePerGas",
    ]);
    expect(refusal(() => read({ ...record, signingRequest: undefined }))).toEqual(["signingRequest"]);
  });

  it("shows the native asset as the protocol's own, whatever the service calls it", () => {
    const record = pendingTransfer(fields());
    const renamed = [{ ...NATIVE_SANDBOX, symbol: "USDC", decimals: 6 }];
    const shown = readTransfer({ transaction: record, assets: renamed, findKey: () => KEY });
    expect(shown.asset).toMatchObject({ kind: "NATIVE", symbol: "Q", decimals: 18, contractAddress: null });
  });
});
