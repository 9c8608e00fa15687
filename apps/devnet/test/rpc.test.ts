import { describe, expect, test } from "vitest";
import { CLIENT_VERSION } from "../src/index";
import { rpcCall, useDevnet } from "../src/testing";
import { rejection } from "./helpers";

const devnet = useDevnet({ chainId: 20803 });

type RpcBlock = { number: string; hash: string; parentHash: string; transactions: unknown[]; baseFeePerGas: string };

describe("JSON-RPC basics", () => {
  test("identity methods", async () => {
    const d = devnet();
    expect(await d.rpc("eth_chainId")).toBe("0x5143");
    expect(await d.rpc("net_version")).toBe("20803");
    expect(await d.rpc("web3_clientVersion")).toBe(CLIENT_VERSION);
    expect(await d.rpc("eth_syncing")).toBe(false);
  });

  test("blocks by number and by hash agree; parent links hold", async () => {
    const d = devnet();
    expect(await d.rpc("eth_blockNumber")).toBe("0x0");
    await d.mine(3);
    expect(await d.rpc("eth_blockNumber")).toBe("0x3");
    const latest = await d.rpc<RpcBlock>("eth_getBlockByNumber", ["latest", false]);
    const byHash = await d.rpc<RpcBlock>("eth_getBlockByHash", [latest.hash, false]);
    expect(byHash).toEqual(latest);
    const parent = await d.rpc<RpcBlock>("eth_getBlockByNumber", ["0x2", true]);
    expect(latest.parentHash).toBe(parent.hash);
    expect(await d.rpc("eth_getBlockByNumber", ["0x99", false])).toBeNull();
    expect(await d.rpc("eth_getBlockByHash", [`0x${"ab".repeat(32)}`, false])).toBeNull();
    const genesis = await d.rpc<RpcBlock>("eth_getBlockByNumber", ["earliest", false]);
    expect(genesis.number).toBe("0x0");
  });

  test("fee methods", async () => {
    const d = devnet();
    const latest = await d.rpc<RpcBlock>("eth_getBlockByNumber", ["latest", false]);
    expect(BigInt(latest.baseFeePerGas)).toBe(1_000_000_000n);
    expect(BigInt(await d.rpc<string>("eth_maxPriorityFeePerGas"))).toBe(1_000_000_000n);
    expect(BigInt(await d.rpc<string>("eth_gasPrice"))).toBe(2_000_000_000n);
    const history = await d.rpc<{ oldestBlock: string; baseFeePerGas: string[]; gasUsedRatio: number[]; reward: string[][] }>(
      "eth_feeHistory",
      ["0x2", "latest", [25, 75]],
    );
    expect(history.baseFeePerGas).toHaveLength(3);
    expect(history.gasUsedRatio).toHaveLength(2);
    expect(history.reward).toEqual([
      ["0x0", "0x0"],
      ["0x0", "0x0"],
    ]);
  });

  test("unknown method is -32601, bad params -32602, header not found -32000", async () => {
    const d = devnet();
    expect((await rejection(d.rpc("eth_nope"))).code).toBe(-32601);
    expect((await rejection(d.rpc("eth_getBalance", ["0x1234", "latest"]))).code).toBe(-32602);
    const missing = await rejection(d.rpc("eth_getBalance", ["0x0000000000000000000000000000000000000001", "0x99"]));
    expect(missing).toMatchObject({ code: -32000, message: "header not found" });
  });

  test("batch requests, notifications, parse errors, GET", async () => {
    const d = devnet();
    const res = await fetch(d.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] },
        { jsonrpc: "2.0", id: "two", method: "eth_unknown", params: [] },
        { jsonrpc: "2.0", method: "eth_blockNumber", params: [] },
        { jsonrpc: "2.0", id: 3, method: "net_version" },
      ]),
    });
    expect(await res.json()).toEqual([
      { jsonrpc: "2.0", id: 1, result: "0x5143" },
      { jsonrpc: "2.0", id: "two", error: { code: -32601, message: "the method eth_unknown does not exist/is not available" } },
      { jsonrpc: "2.0", id: 3, result: "20803" },
    ]);
    const parseError = await fetch(d.url, { method: "POST", body: "{not json" });
    expect(await parseError.json()).toMatchObject({ error: { code: -32700 } });
    const empty = await fetch(d.url, { method: "POST", body: "[]" });
    expect(await empty.json()).toMatchObject({ error: { code: -32600 } });
    const info = await fetch(d.url);
    expect(await info.json()).toMatchObject({ chainId: 20803 });
  });

  test("devnet_fund credits at the head block and shows in eth_getBalance", async () => {
    const d = devnet();
    const who = "0x00000000000000000000000000000000000000f1";
    const head = await d.rpc<string>("eth_blockNumber");
    expect(await d.rpc("devnet_fund", [who, "0x64"])).toBe("0x64");
    expect(await d.rpc("devnet_fund", [who, "0x1"])).toBe("0x65");
    expect(await d.rpc("eth_getBalance", [who, "latest"])).toBe("0x65");
    expect(await d.rpc("eth_getBalance", [who, head])).toBe("0x65");
    await d.mine();
    expect(await d.rpc("eth_getBalance", [who, head])).toBe("0x65");
    expect(await d.rpc("eth_getBalance", [who, "0x0"])).toBe("0x0");
    expect(await rpcCall(d.url, "eth_getTransactionCount", [who, "pending"])).toBe("0x0");
  });
});
