import { HttpRequestError, InternalRpcError, RpcRequestError, TimeoutError, TransactionReceiptNotFoundError } from "viem";
import { describe, expect, test } from "vitest";
import { mapRpcError } from "./node";

// The mapping is a pure function over error values; the end-to-end path (a real devnet
// answering these errors through viem) is covered in apps/devnet/test.
const rpc = (code: number, message: string, data?: unknown) =>
  new RpcRequestError({ body: { method: "eth_sendRawTransaction" }, error: { code, message, data }, url: "http://127.0.0.1:1" });

/** The last link of `error.cause`, followed by hand (viem nests its errors one to three deep). */
function rootCause(error: Error): unknown {
  let current: unknown = error;
  while (current instanceof Error && current.cause !== undefined && current.cause !== null) current = current.cause;
  return current;
}

describe("mapRpcError", () => {
  test.each([
    [rpc(-32003, "nonce too low: next nonce 4, transaction nonce 3", { reason: "NONCE_TOO_LOW" }), "NonceTooLowError"],
    [rpc(-32000, "nonce too low"), "NonceTooLowError"],
    [rpc(-32000, "insufficient funds for gas * price + value"), "InsufficientFundsError"],
    [rpc(-32003, "fee too low: maxFeePerGas 1 below base fee 7", { reason: "FEE_TOO_LOW" }), "FeeTooLowError"],
    [rpc(-32000, "transaction underpriced"), "FeeTooLowError"],
    [rpc(-32000, "replacement transaction underpriced"), "FeeTooLowError"],
    [rpc(-32003, "invalid signature", { reason: "INVALID_SIGNATURE" }), "InvalidTransactionSignatureError"],
    [rpc(-32003, "wrong chain id: expected 20804, got 20803", { reason: "WRONG_CHAIN_ID" }), "WrongChainIdError"],
    [rpc(-32003, "txpool is full", { reason: "TXPOOL_FULL" }), "TransactionRejectedError"],
    [new InternalRpcError(rpc(-32603, "internal error")), "RpcUnavailableError"],
    [new HttpRequestError({ url: "http://127.0.0.1:1", cause: new TypeError("fetch failed") }), "RpcUnavailableError"],
    [new HttpRequestError({ url: "http://127.0.0.1:1", status: 502 }), "RpcUnavailableError"],
    [new TimeoutError({ body: {}, url: "http://127.0.0.1:1" }), "RpcUnavailableError"],
    [new TransactionReceiptNotFoundError({ hash: "0x01" }), "TransactionNotFoundError"],
    [rpc(3, "execution reverted", "0x08c379a0"), "CallRevertedError"],
    [rpc(-32602, "invalid params"), "ChainRpcError"],
  ])("%#: → %s", (error, name) => {
    const mapped = mapRpcError(error);
    expect(mapped.name).toBe(name);
    expect(mapped.cause).toBe(error);
    // walk() reaches the root of the original error's own chain, and finds the original in it.
    expect(mapped.walk()).toBe(rootCause(error));
    expect(mapped.walk((e) => e === error)).toBe(error);
  });

  test("fee errors say which fee", () => {
    expect(mapRpcError(rpc(-32003, "replacement transaction underpriced", { reason: "REPLACEMENT_UNDERPRICED" }))).toMatchObject({
      reason: "replacement",
    });
  });

  test("keeps the node's message as details", () => {
    const mapped = mapRpcError(rpc(-32003, "nonce too low: next nonce 4, transaction nonce 3", { reason: "NONCE_TOO_LOW" }));
    expect(mapped.details).toContain("nonce too low: next nonce 4");
    expect(mapped.shortMessage).not.toContain("Version");
  });

  test("passes our own errors through", () => {
    const mapped = mapRpcError(rpc(-32000, "nonce too low"));
    expect(mapRpcError(mapped)).toBe(mapped);
  });
});
