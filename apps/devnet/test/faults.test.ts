import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createQuantumPublicClient, mapRpcError, readNativeBalance, RpcUnavailableError } from "@qc/chain";
import { getBlockNumber } from "viem/actions";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFundedAccount, startTestDevnet, useDevnet, type TestDevnet } from "../src/testing";
import { GWEI, Q, rejection, transfer } from "./helpers";

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

  test("baseFee: blocks keep coming at that base fee, cheaper transactions wait in the pool, a replacement above it is mined", async () => {
    const d = devnet();
    const carol = await createFundedAccount(d, Q);
    const spike = 50n * GWEI;
    expect(await d.rpc("devnet_setFault", [{ kind: "baseFee", baseFeePerGas: `0x${spike.toString(16)}` }])).toMatchObject({
      baseFee: { baseFeePerGas: `0x${spike.toString(16)}` },
    });
    expect(await d.rpc("eth_gasPrice")).toBe(`0x${(spike + GWEI).toString(16)}`);
    // Admitted (it pays the chain's own base fee), then left in the pool block after block.
    const cheap = transfer(carol, { nonce: 0, to, value: 7n, maxFeePerGas: 3n * GWEI });
    expect(await d.rpc("eth_sendRawTransaction", [cheap.raw])).toBe(cheap.hash);
    await d.mine(3);
    const latest = await d.rpc<{ baseFeePerGas: string; transactions: string[] }>("eth_getBlockByNumber", ["latest", false]);
    expect(BigInt(latest.baseFeePerGas)).toBe(spike);
    expect(latest.transactions).toEqual([]);
    expect(await d.rpc("eth_getTransactionByHash", [cheap.hash])).toMatchObject({ blockNumber: null });
    const history = await d.rpc<{ baseFeePerGas: string[] }>("eth_feeHistory", ["0x2", "latest", []]);
    expect(history.baseFeePerGas.map((fee) => BigInt(fee))).toEqual([spike, spike, spike]);
    // Same nonce, fees above the spike and bumped over the pending one: it replaces it and is mined.
    const faster = transfer(carol, { nonce: 0, to, value: 7n, maxFeePerGas: 2n * spike, maxPriorityFeePerGas: 2n * GWEI });
    expect(await d.rpc("eth_sendRawTransaction", [faster.raw])).toBe(faster.hash);
    await d.mine();
    expect(await d.rpc("eth_getTransactionReceipt", [faster.hash])).toMatchObject({
      status: "0x1",
      effectiveGasPrice: `0x${(spike + 2n * GWEI).toString(16)}`,
    });
    expect(await d.rpc("eth_getTransactionByHash", [cheap.hash])).toBeNull();
    // Cleared: the next block is back at the chain's own base fee, and waiting transactions run.
    const waiting = transfer(carol, { nonce: 1, to, value: 1n, maxFeePerGas: 3n * GWEI });
    await d.rpc("eth_sendRawTransaction", [waiting.raw]);
    await d.mine();
    expect(await d.rpc("eth_getTransactionByHash", [waiting.hash])).toMatchObject({ blockNumber: null });
    expect(await d.rpc("devnet_clearFaults")).toEqual({});
    await d.mine();
    expect(await d.rpc("eth_getTransactionReceipt", [waiting.hash])).toMatchObject({ status: "0x1" });
    const after = await d.rpc<{ baseFeePerGas: string }>("eth_getBlockByNumber", ["latest", false]);
    expect(BigInt(after.baseFeePerGas)).toBeLessThan(3n * GWEI);
  });

  test("baseFee: blocks made under it come back with the same hashes and base fees after a restart", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "qc-devnet-basefee-"));
    try {
      const first = await startTestDevnet({ dataDir });
      await first.mine();
      await first.rpc("devnet_setFault", [{ kind: "baseFee", baseFeePerGas: "0x2540be400" }]);
      await first.mine(2);
      await first.rpc("devnet_clearFaults");
      await first.mine();
      const blocks = await Promise.all(["0x1", "0x2", "0x3", "0x4"].map((n) => first.rpc("eth_getBlockByNumber", [n, false])));
      await first.close();
      const second = await startTestDevnet({ dataDir });
      try {
        expect(await Promise.all(["0x1", "0x2", "0x3", "0x4"].map((n) => second.rpc("eth_getBlockByNumber", [n, false])))).toEqual(blocks);
        expect(blocks.map((b) => (b as { baseFeePerGas: string }).baseFeePerGas)).toContain("0x2540be400");
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("bad fault specs are -32602", async () => {
    const d = devnet();
    expect((await rejection(d.rpc("devnet_setFault", [{ kind: "explode" }]))).code).toBe(-32602);
    expect((await rejection(d.rpc("devnet_setFault", [{ kind: "stall", ms: "soon" }]))).code).toBe(-32602);
    expect((await rejection(d.rpc("devnet_setFault", [{ kind: "baseFee", baseFeePerGas: "lots" }]))).code).toBe(-32602);
    expect((await rejection(d.rpc("devnet_setFault", [{ kind: "baseFee" }]))).code).toBe(-32602);
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
