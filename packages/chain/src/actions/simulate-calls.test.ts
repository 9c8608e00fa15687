import { encodeAbiParameters, encodeErrorResult, parseAbi, type Hex } from "viem";
import { describe, expect, test } from "vitest";
import { decodeRevertReason, NATIVE_TRANSFER_LOG_ADDRESS, TRANSFER_EVENT_TOPIC, transferOf } from "./simulate-calls";

// The calls against a node (the devnet's eth_simulateV1, and a devnet without it) are in
// apps/devnet/test/simulate-calls.test.ts; these are the pure readings of its answers.
describe("decodeRevertReason", () => {
  test("Error(string) gives its text", () => {
    const data = encodeErrorResult({ abi: parseAbi(["error Error(string)"]), errorName: "Error", args: ["not enough"] });
    expect(decodeRevertReason(data)).toBe("not enough");
  });

  test("Panic(uint256) gives its code and meaning", () => {
    const data = encodeErrorResult({ abi: parseAbi(["error Panic(uint256)"]), errorName: "Panic", args: [0x11n] });
    expect(decodeRevertReason(data)).toBe("panic 0x11: arithmetic underflow or overflow");
  });

  test("a custom error, empty data or garbage give null", () => {
    const custom = encodeErrorResult({
      abi: parseAbi(["error InsufficientBalance(uint256,uint256)"]),
      errorName: "InsufficientBalance",
      args: [1n, 2n],
    });
    expect(decodeRevertReason(custom)).toBeNull();
    expect(decodeRevertReason("0x")).toBeNull();
    expect(decodeRevertReason("0x08c379a0ff")).toBeNull();
  });
});

describe("transferOf", () => {
  const from = "0x00000000000000000000000000000000000000aa";
  const to = "0x00000000000000000000000000000000000000bb";
  const topics = [TRANSFER_EVENT_TOPIC, `0x${"0".repeat(24)}${from.slice(2)}`, `0x${"0".repeat(24)}${to.slice(2)}`] as Hex[];
  const data = encodeAbiParameters([{ type: "uint256" }], [1234n]);

  test("a 0xeeee log is a native transfer, any other emitter a token transfer", () => {
    expect(transferOf({ address: NATIVE_TRANSFER_LOG_ADDRESS, topics, data })).toEqual({ asset: "native", from, to, value: 1234n });
    const token = "0x00000000000000000000000000000000000000cc";
    expect(transferOf({ address: token, topics, data })).toEqual({ asset: token, from, to, value: 1234n });
  });

  test("an ERC-721 Transfer (three indexed topics) or another event is not a value transfer", () => {
    expect(transferOf({ address: NATIVE_TRANSFER_LOG_ADDRESS, topics: [...topics, data], data: "0x" })).toBeUndefined();
    expect(
      transferOf({ address: NATIVE_TRANSFER_LOG_ADDRESS, topics: [`0x${"1".repeat(64)}`, topics[1]!, topics[2]!], data }),
    ).toBeUndefined();
  });
});
