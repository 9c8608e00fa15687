import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { createFundedAccount, useDevnet } from "../src/testing";
import { GWEI, Q, transfer } from "./helpers";

const devnet = useDevnet();
const to = "0x00000000000000000000000000000000000000e1";

type RpcTx = { blockNumber: string | null; transactionIndex: string | null };
type RpcBlock = { transactions: string[] };

describe("mempool and block building", () => {
  test("a future nonce waits in the mempool until the gap fills", async () => {
    const d = devnet();
    const alice = await createFundedAccount(d, Q);
    const later = transfer(alice, { nonce: 1, to, value: 2n });
    expect(await d.rpc("eth_sendRawTransaction", [later.raw])).toBe(later.hash);
    expect(await d.rpc("eth_getTransactionCount", [alice.address, "pending"])).toBe("0x0");

    await d.mine(2);
    expect(await d.rpc<RpcTx>("eth_getTransactionByHash", [later.hash])).toMatchObject({ blockNumber: null, transactionIndex: null });
    expect(await d.rpc("eth_getTransactionReceipt", [later.hash])).toBeNull();
    expect(await d.rpc("eth_getTransactionCount", [alice.address, "latest"])).toBe("0x0");

    const first = transfer(alice, { nonce: 0, to, value: 1n });
    await d.rpc("eth_sendRawTransaction", [first.raw]);
    expect(await d.rpc("eth_getTransactionCount", [alice.address, "pending"])).toBe("0x2");
    await d.mine();
    const block = await d.rpc<RpcBlock>("eth_getBlockByNumber", ["latest", false]);
    expect(block.transactions).toEqual([first.hash, later.hash]);
    expect(await d.rpc("eth_getTransactionCount", [alice.address, "latest"])).toBe("0x2");
    expect(await d.rpc("eth_getBalance", [to, "latest"])).toBe("0x3");
  });

  test("many transactions from several senders go into one block, ordered by tip then arrival", async () => {
    const d = devnet();
    const senders = await Promise.all([1, 2, 3].map(() => createFundedAccount(d, Q)));
    const hashes: string[] = [];
    for (const [i, sender] of senders.entries()) {
      for (let nonce = 0; nonce < 3; nonce++) {
        const tip = BigInt(i + 1) * GWEI;
        const t = transfer(sender, { nonce, to, maxPriorityFeePerGas: tip, maxFeePerGas: 5n * GWEI });
        hashes.push(await d.rpc<string>("eth_sendRawTransaction", [t.raw]));
      }
    }
    await d.mine();
    const block = await d.rpc<RpcBlock & { gasUsed: string }>("eth_getBlockByNumber", ["latest", false]);
    expect(block.transactions).toHaveLength(9);
    expect(BigInt(block.gasUsed)).toBe(9n * 21_000n);
    // Highest tip first (sender 3), nonces in order within a sender.
    expect(block.transactions.slice(0, 3)).toEqual(hashes.slice(6, 9));
    expect(block.transactions.slice(6)).toEqual(hashes.slice(0, 3));
    const receipts = await Promise.all(
      block.transactions.map((h) => d.rpc<{ cumulativeGasUsed: string; transactionIndex: string }>("eth_getTransactionReceipt", [h])),
    );
    expect(receipts.map((r) => Number(r.transactionIndex))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(BigInt(receipts[8]!.cumulativeGasUsed)).toBe(9n * 21_000n);
  });

  test("a transaction that can no longer pay stays pending until the sender is funded", async () => {
    const d = devnet();
    // Enough for either transfer alone (admission checks each), not for both once mined.
    const bob = await createFundedAccount(d, 21_000n * 3n * GWEI + 10n);
    const a = transfer(bob, { nonce: 0, to, value: 10n });
    const b = transfer(bob, { nonce: 1, to, value: 1n });
    await d.rpc("eth_sendRawTransaction", [a.raw]);
    await d.rpc("eth_sendRawTransaction", [b.raw]);
    await d.mine();
    expect(await d.rpc<RpcTx>("eth_getTransactionByHash", [a.hash])).toMatchObject({ blockNumber: expect.any(String) });
    expect(await d.rpc<RpcTx>("eth_getTransactionByHash", [b.hash])).toMatchObject({ blockNumber: null });
    await d.fund(bob.address, Q);
    await d.mine();
    expect(await d.rpc<RpcTx>("eth_getTransactionByHash", [b.hash])).toMatchObject({ blockNumber: expect.any(String) });
  });

  test("calls into precompiles execute (the KZG point-evaluation one included) and failures are mined as status 0", async () => {
    const d = devnet();
    const carol = await createFundedAccount(d, Q);
    const kzgPrecompile = "0x000000000000000000000000000000000000000a";
    const bad = transfer(carol, { nonce: 0, to: kzgPrecompile, value: 1n, gas: 100_000n, data: "0x01" });
    const sha = transfer(carol, { nonce: 1, to: "0x0000000000000000000000000000000000000002", value: 0n, gas: 50_000n, data: "0x616263" });
    await d.rpc("eth_sendRawTransaction", [bad.raw]);
    await d.rpc("eth_sendRawTransaction", [sha.raw]);
    await d.mine();
    const failed = await d.rpc<{ status: string; gasUsed: string }>("eth_getTransactionReceipt", [bad.hash]);
    expect(failed).toMatchObject({ status: "0x0", gasUsed: "0x186a0" });
    expect(await d.rpc("eth_getTransactionReceipt", [sha.hash])).toMatchObject({ status: "0x1" });
    // sha256("abc") through eth_call on the 0x02 precompile.
    expect(await d.rpc("eth_call", [{ to: "0x0000000000000000000000000000000000000002", data: "0x616263" }, "latest"])).toBe(
      "0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    // Point evaluation, really checked: the commitment to the zero polynomial (the G1 point at
    // infinity) opens to y = 0 at any z with the infinity proof, and to nothing else.
    const commitment = `c0${"00".repeat(47)}`;
    const versionedHash = `01${createHash("sha256").update(Buffer.from(commitment, "hex")).digest("hex").slice(2)}`;
    const z = "00".repeat(31) + "05";
    const evaluate = (y: string) =>
      d.rpc("eth_call", [{ to: kzgPrecompile, data: `0x${versionedHash}${z}${y}${commitment}${commitment}`, gas: "0x30d40" }, "latest"]);
    expect(await evaluate("00".repeat(32))).toBe(
      // FIELD_ELEMENTS_PER_BLOB (4096) ‖ BLS_MODULUS
      `0x${(4096).toString(16).padStart(64, "0")}73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001`,
    );
    await expect(evaluate(`${"00".repeat(31)}01`)).rejects.toMatchObject({ code: -32000 });
  });
});
