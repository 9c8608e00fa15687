import { describe, expect, test } from "vitest";
import { createQuantumPublicClient, InvalidRpcUrlError, parseRpcUrls } from "./create-quantum-public-client";
import { quantumMainnet, quantumSandbox } from "../chains";

describe("parseRpcUrls", () => {
  test("splits comma-separated lists and trims", () => {
    expect(parseRpcUrls(" http://a:1 , https://b/rpc,,")).toEqual(["http://a:1", "https://b/rpc"]);
    expect(parseRpcUrls(["http://a:1,http://b:2", "http://c:3"])).toEqual(["http://a:1", "http://b:2", "http://c:3"]);
  });
  test.each(["", " , ", "ftp://x", "not a url"])("rejects %j", (value) => {
    expect(() => parseRpcUrls(value)).toThrow(InvalidRpcUrlError);
  });
});

describe("chains", () => {
  test("ids, currency and serializer", () => {
    expect(quantumMainnet.id).toBe(20803);
    expect(quantumSandbox.id).toBe(20804);
    expect(quantumSandbox.nativeCurrency).toEqual({ name: "Q", symbol: "Q", decimals: 18 });
    const client = createQuantumPublicClient("QUANTUM_SANDBOX", "http://127.0.0.1:1,http://127.0.0.1:2");
    expect(client.chain.id).toBe(20804);
    expect(client.transport.type).toBe("fallback");
    const serialized = quantumSandbox.serializers?.transaction?.({
      chainId: 20804,
      nonce: 0,
      gas: 21000n,
      maxFeePerGas: 2n,
      maxPriorityFeePerGas: 1n,
      to: "0x0000000000000000000000000000000000000001",
      value: 1n,
    });
    expect(String(serialized).startsWith("0x51")).toBe(true);
  });
});
