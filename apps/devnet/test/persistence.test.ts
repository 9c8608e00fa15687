import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { createFundedAccount, startTestDevnet } from "../src/testing";
import { Q, transfer } from "./helpers";

const dataDir = mkdtempSync(join(tmpdir(), "qc-devnet-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type RpcBlock = { hash: string; number: string; stateRoot: string; transactions: string[] };

describe("--data-dir persistence", () => {
  test("blocks, receipts, balances, credits, reorgs and the mempool survive a restart", async () => {
    const to = "0x00000000000000000000000000000000000000aa";
    const first = await startTestDevnet({ dataDir, prefund: { "0x00000000000000000000000000000000000000bb": 42n } });
    const alice = await createFundedAccount(first, 2n * Q);
    const t0 = transfer(alice, { nonce: 0, to, value: 100n });
    const t1 = transfer(alice, { nonce: 1, to, value: 200n });
    await first.rpc("eth_sendRawTransaction", [t0.raw]);
    await first.mine();
    await first.rpc("eth_sendRawTransaction", [t1.raw]);
    await first.mine();
    // t1 goes back to the pool, a credit lands, t1 is mined again, an empty block is dropped.
    expect(await first.rpc("devnet_reorg", ["0x1"])).toMatchObject({ returnedTransactions: [t1.hash] });
    await first.fund(to, 1000n);
    await first.mine(2);
    await first.rpc("devnet_reorg", ["0x1"]);
    const pending = transfer(alice, { nonce: 2, to, value: 300n });
    await first.rpc("eth_sendRawTransaction", [pending.raw]);
    const head = await first.rpc<RpcBlock>("eth_getBlockByNumber", ["latest", false]);
    const receipt = await first.rpc("eth_getTransactionReceipt", [t1.hash]);
    expect(receipt).toMatchObject({ status: "0x1", blockNumber: head.number });
    const aliceBalance = await first.rpc("eth_getBalance", [alice.address, "latest"]);
    const toBalance = await first.rpc("eth_getBalance", [to, "latest"]);
    await first.close();

    expect(readFileSync(join(dataDir, "chain.jsonl"), "utf8").split("\n")[0]).toContain('"type":"genesis"');

    // The prefund option is ignored for an existing chain; the journal's genesis wins.
    const second = await startTestDevnet({ dataDir, prefund: { [to]: 1n } });
    try {
      expect(await second.rpc<RpcBlock>("eth_getBlockByNumber", ["latest", false])).toEqual(head);
      expect(await second.rpc("eth_getTransactionReceipt", [t1.hash])).toEqual(receipt);
      expect(await second.rpc("eth_getBalance", [alice.address, "latest"])).toBe(aliceBalance);
      expect(await second.rpc("eth_getBalance", [to, "latest"])).toBe(toBalance);
      expect(await second.rpc("eth_getBalance", ["0x00000000000000000000000000000000000000bb", "latest"])).toBe("0x2a");
      expect(await second.rpc("eth_getTransactionByHash", [pending.hash])).toMatchObject({ blockNumber: null });
      await second.mine();
      expect(await second.rpc("eth_getTransactionReceipt", [pending.hash])).toMatchObject({ status: "0x1" });
      expect(BigInt(await second.rpc<string>("eth_getBalance", [to, "latest"]))).toBe(BigInt(toBalance as string) + 300n);
    } finally {
      await second.close();
    }
  });

  test("a data dir of another chain is refused", async () => {
    await expect(startTestDevnet({ dataDir, chainId: 20803 })).rejects.toThrow(/holds chain 20804/);
  });
});
