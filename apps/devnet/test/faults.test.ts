import { createQuantumPublicClient, mapRpcError, readNativeBalance, RpcUnavailableError } from "@qc/chain";
import { getBlockNumber } from "viem/actions";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFundedAccount, startTestDevnet, useDevnet, type TestDevnet } from "../src/testing";
import { Q, rejection, transfer } from "./helpers";

const devnet = useDevnet();
const to = "0x00000000000000000000000000000000000000fa";

describe("devnet_setFault", () => {
  test("dropNextTx: acknowledged with its hash, never pooled or mined", async () => {
    const d = devnet();
    const alice = await createFundedAccount(d, Q);
    await d.rpc("devnet_setFault", [{ kind: "dropNextTx" }]);
    const lost = transfer(alice, { nonce: 0, to, value: 1n });
    expect(await d.rpc("eth_sendRawTransaction", [lost.raw])).toBe(lost.hash);
    expect(await d.rpc("eth_getTransactionByHash", [lost.hash])).toBeNull();
    expect(await d.rpc("eth_getTransactionCount", [alice.address, "pending"])).toBe("0x0");
    await d.mine(2);
    expect(await d.rpc("eth_getTransactionReceipt", [lost.hash])).toBeNull();
    expect(await d.rpc("eth_getBalance", [to, "latest"])).toBe("0x0");
    // One-shot: the rebroadcast (same bytes) is accepted and mined.
    expect(await d.rpc("eth_sendRawTransaction", [lost.raw])).toBe(lost.hash);
    await d.mine();
    expect(await d.rpc("eth_getBalance", [to, "latest"])).toBe("0x1");
    expect((await d.rpc<{ dropped: number }>("devnet_metrics")).dropped).toBe(1);
  });

  test("dropNextTx does not consume on a rejected transaction", async () => {
    const d = devnet();
    const bob = await createFundedAccount(d, Q);
    await d.rpc("devnet_setFault", [{ kind: "dropNextTx" }]);
    await rejection(d.rpc("eth_sendRawTransaction", [transfer(bob, { nonce: 0, to, chainId: 1 }).raw]));
    expect(await d.rpc("devnet_status")).toMatchObject({ faults: { dropNextTx: { remaining: 1 } } });
    await d.rpc("devnet_clearFaults");
    expect(await d.rpc("devnet_status")).toMatchObject({ faults: {} });
  });

  test("rpcError with count: the next N calls fail with -32603, devnet_* are exempt", async () => {
    const d = devnet();
    await d.rpc("devnet_setFault", [{ kind: "rpcError", count: 2 }]);
    expect((await rejection(d.rpc("eth_blockNumber"))).code).toBe(-32603);
    expect(await d.rpc("devnet_status")).toMatchObject({ faults: { rpcError: { remaining: 1 } } });
    expect((await rejection(d.rpc("eth_chainId"))).code).toBe(-32603);
    expect(await d.rpc("eth_chainId")).toBe("0x5144");
  });

  test("rpcError without count lasts until cleared with {kind: none}; viem maps it to RpcUnavailableError", async () => {
    const d = devnet();
    await d.rpc("devnet_setFault", [{ kind: "rpcError", message: "boom" }]);
    for (let i = 0; i < 3; i++) expect(await rejection(d.rpc("eth_blockNumber"))).toMatchObject({ code: -32603, message: "boom" });
    const client = d.publicClient();
    const error = await readNativeBalance(client, { address: to }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcUnavailableError);
    await d.rpc("devnet_setFault", [{ kind: "none" }]);
    expect(await d.rpc("eth_chainId")).toBe("0x5144");
  });

  test("stall: blocks stop and requests hang for ms, then resume", async () => {
    const d = await startTestDevnet({ blockTimeMs: 40 });
    try {
      await new Promise((r) => setTimeout(r, 150));
      await d.rpc("devnet_setFault", [{ kind: "stall", ms: 600 }]);
      const headAtStall = BigInt((await d.rpc<{ head: string }>("devnet_status")).head);
      const started = Date.now();
      const held = d.rpc<string>("eth_blockNumber");
      await new Promise((r) => setTimeout(r, 300));
      expect(BigInt((await d.rpc<{ head: string }>("devnet_status")).head)).toBeLessThanOrEqual(headAtStall + 1n);
      const answered = BigInt(await held);
      expect(Date.now() - started).toBeGreaterThanOrEqual(550);
      expect(answered).toBeLessThanOrEqual(headAtStall + 1n);
      // Production resumes on its own once the stall is over.
      const deadline = Date.now() + 10_000;
      while (BigInt(await d.rpc<string>("eth_blockNumber")) <= headAtStall + 1n && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(BigInt(await d.rpc<string>("eth_blockNumber"))).toBeGreaterThan(headAtStall + 1n);
    } finally {
      await d.close();
    }
  });

  test("stall without ms holds requests until cleared", async () => {
    const d = devnet();
    await d.rpc("devnet_setFault", [{ kind: "stall" }]);
    let answered = false;
    const held = d.rpc("eth_chainId").then((r) => {
      answered = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 250));
    expect(answered).toBe(false);
    await d.rpc("devnet_clearFaults");
    expect(await held).toBe("0x5144");
  });

  test("bad fault specs are -32602", async () => {
    const d = devnet();
    expect((await rejection(d.rpc("devnet_setFault", [{ kind: "explode" }]))).code).toBe(-32602);
    expect((await rejection(d.rpc("devnet_setFault", [{ kind: "stall", ms: "soon" }]))).code).toBe(-32602);
  });
});

describe("fallback transport over comma-separated RPC URLs", () => {
  let primary: TestDevnet;
  let secondary: TestDevnet;
  beforeAll(async () => {
    [primary, secondary] = await Promise.all([startTestDevnet(), startTestDevnet()]);
    await secondary.mine(5);
  });
  afterAll(async () => {
    await Promise.all([primary?.close(), secondary?.close()]);
  });

  test("an internal error on the first URL falls through to the second", async () => {
    const client = createQuantumPublicClient("QUANTUM_SANDBOX", `${primary.url}, ${secondary.url}`, { retryCount: 0 });
    expect(await getBlockNumber(client, { cacheTime: 0 })).toBe(0n);
    await primary.rpc("devnet_setFault", [{ kind: "rpcError" }]);
    expect(await getBlockNumber(client, { cacheTime: 0 })).toBe(5n);
    await primary.rpc("devnet_clearFaults");
  });

  test("a dead endpoint falls through; all dead is RpcUnavailableError", async () => {
    const dead = "http://127.0.0.1:9";
    const client = createQuantumPublicClient("QUANTUM_SANDBOX", [dead, secondary.url], { retryCount: 0, timeout: 2_000 });
    expect(await getBlockNumber(client, { cacheTime: 0 })).toBe(5n);
    const none = createQuantumPublicClient("QUANTUM_SANDBOX", dead, { retryCount: 0, timeout: 2_000 });
    const error = await getBlockNumber(none, { cacheTime: 0 }).catch((e: unknown) => e);
    expect(mapRpcError(error)).toBeInstanceOf(RpcUnavailableError);
  });
});
