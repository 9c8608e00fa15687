import { describe, expect, test } from "vitest";
import { createFundedAccount, useDevnet } from "../src/testing";
import { Q, transfer } from "./helpers";

const devnet = useDevnet();
const to = "0x00000000000000000000000000000000000000f7";

type RpcTx = { blockNumber: string | null; blockHash: string | null };
type RpcBlock = { hash: string; number: string; transactions: string[] };

describe("devnet_reorg", () => {
  test("drops the head block; its transactions return to the mempool and are mined again", async () => {
    const d = devnet();
    const alice = await createFundedAccount(d, Q);
    await d.mine();
    const t1 = transfer(alice, { nonce: 0, to, value: 7n });
    const t2 = transfer(alice, { nonce: 1, to, value: 8n });
    await d.rpc("eth_sendRawTransaction", [t1.raw]);
    await d.rpc("eth_sendRawTransaction", [t2.raw]);
    await d.mine();
    const dropped = await d.rpc<RpcBlock>("eth_getBlockByNumber", ["latest", false]);
    expect(dropped.transactions).toEqual([t1.hash, t2.hash]);
    expect(await d.rpc("eth_getBalance", [to, "latest"])).toBe("0xf");

    // A credit after the dropped block is an operator action, not chain history: it survives.
    await d.fund(alice.address, 5n);
    const balanceBeforeReorg = BigInt(await d.rpc<string>("eth_getBalance", [alice.address, "latest"]));

    const result = await d.rpc<{ removedBlocks: string[]; returnedTransactions: string[]; head: string }>("devnet_reorg", ["0x1"]);
    expect(result.removedBlocks).toEqual([dropped.hash]);
    expect(result.returnedTransactions).toEqual([t1.hash, t2.hash]);
    expect(BigInt(result.head)).toBe(BigInt(dropped.number) - 1n);

    expect(await d.rpc("eth_getBlockByHash", [dropped.hash, false])).toBeNull();
    expect(await d.rpc("eth_getTransactionReceipt", [t1.hash])).toBeNull();
    expect(await d.rpc<RpcTx>("eth_getTransactionByHash", [t1.hash])).toMatchObject({ blockNumber: null, blockHash: null });
    expect(await d.rpc("eth_getBalance", [to, "latest"])).toBe("0x0");
    expect(await d.rpc("eth_getTransactionCount", [alice.address, "latest"])).toBe("0x0");
    expect(await d.rpc("eth_getTransactionCount", [alice.address, "pending"])).toBe("0x2");
    const status = await d.rpc<{ pending: string[] }>("devnet_status");
    expect(status.pending).toEqual([t1.hash, t2.hash]);
    // Alice has her fee and value back, plus the later credit.
    const receiptlessBalance = BigInt(await d.rpc<string>("eth_getBalance", [alice.address, "latest"]));
    expect(receiptlessBalance).toBeGreaterThan(balanceBeforeReorg);
    expect(receiptlessBalance).toBe(Q + 5n);

    await d.mine();
    const replacement = await d.rpc<RpcBlock>("eth_getBlockByNumber", ["latest", false]);
    expect(replacement.number).toBe(dropped.number);
    expect(replacement.hash).not.toBe(dropped.hash);
    expect(replacement.transactions).toEqual([t1.hash, t2.hash]);
    expect(await d.rpc<RpcTx>("eth_getTransactionByHash", [t1.hash])).toMatchObject({ blockHash: replacement.hash });
    expect(await d.rpc("eth_getBalance", [to, "latest"])).toBe("0xf");
  });

  test("with dropTransactions the removed blocks' transactions are forgotten: neither mined nor pending, the nonce free again", async () => {
    const d = devnet();
    const bob = await createFundedAccount(d, Q);
    await d.mine();
    const t1 = transfer(bob, { nonce: 0, to, value: 3n });
    await d.rpc("eth_sendRawTransaction", [t1.raw]);
    await d.mine();
    const toBefore = BigInt(await d.rpc<string>("eth_getBalance", [to, "latest"]));

    const result = await d.rpc<{ removedBlocks: string[]; returnedTransactions: string[] }>("devnet_reorg", [
      "0x1",
      { dropTransactions: true },
    ]);
    expect(result.removedBlocks).toHaveLength(1);
    expect(result.returnedTransactions).toEqual([]);
    expect(await d.rpc("eth_getTransactionByHash", [t1.hash])).toBeNull();
    expect((await d.rpc<{ pending: string[] }>("devnet_status")).pending).toEqual([]);
    await d.mine();
    expect(await d.rpc("eth_getTransactionByHash", [t1.hash])).toBeNull();
    expect(BigInt(await d.rpc<string>("eth_getBalance", [to, "latest"]))).toBe(toBefore - 3n);
    // The same nonce is free for another transaction (what a double spend looks like).
    expect(await d.rpc("eth_getTransactionCount", [bob.address, "pending"])).toBe("0x0");
  });

  test("deeper reorgs and limits", async () => {
    const d = devnet();
    const head = BigInt(await d.rpc<string>("eth_blockNumber"));
    await d.mine(3);
    await d.rpc("devnet_reorg", ["0x3"]);
    expect(BigInt(await d.rpc<string>("eth_blockNumber"))).toBe(head);
    await expect(d.rpc("devnet_reorg", [`0x${(head + 1n).toString(16)}`])).rejects.toMatchObject({ code: -32602 });
  });
});
