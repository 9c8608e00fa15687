import { getPendingNonce, getQuantumTransactionStatus, quantumSandbox, readNativeBalance, sendRawQuantumTransaction } from "@qc/chain";
import { createWalletClient, http, parseEther } from "viem";
import { getBalance, getBlock, getTransaction, getTransactionReceipt, waitForTransactionReceipt } from "viem/actions";
import { describe, expect, test } from "vitest";
import { DEFAULT_COINBASE } from "../src/index";
import { createFundedAccount, useDevnet } from "../src/testing";
import { Q, transfer } from "./helpers";

// Interval mining here, so confirmations arrive on their own like on a real chain.
const devnet = useDevnet({ blockTimeMs: 100 });

describe("0x51 transfer through viem over HTTP", () => {
  test("fund, send, 3 confirmations, balances exact to the Qwei including the fee", async () => {
    const d = devnet();
    const client = d.publicClient();
    const alice = await createFundedAccount(d, 10n * Q);
    const bob = "0x000000000000000000000000000000000000b0b0";
    const wallet = createWalletClient({ account: alice.account, chain: quantumSandbox, transport: http(d.url) });

    const before = await readNativeBalance(client, { address: alice.address });
    expect(before.balance).toBe(10n * Q);
    const coinbaseBefore = await getBalance(client, { address: DEFAULT_COINBASE });

    const value = parseEther("1.234567890123456789");
    const hash = await wallet.sendTransaction({ to: bob, value });
    const receipt = await waitForTransactionReceipt(client, { hash, confirmations: 3, pollingInterval: 50 });
    expect(receipt.status).toBe("success");
    expect(receipt.transactionHash).toBe(hash);
    expect(receipt.type).toBe("quantum");
    expect(receipt.gasUsed).toBe(21_000n);
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBeGreaterThanOrEqual(receipt.blockNumber + 2n);

    const block = await getBlock(client, { blockNumber: receipt.blockNumber });
    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    const after = await getBalance(client, { address: alice.address, blockNumber: receipt.blockNumber });
    expect(after).toBe(10n * Q - value - fee);
    expect(await getBalance(client, { address: bob })).toBe(value);
    // The base fee is burnt, the tip goes to the coinbase: the supply shrinks by exactly the burn.
    const tip = receipt.effectiveGasPrice - block.baseFeePerGas!;
    expect(await getBalance(client, { address: DEFAULT_COINBASE, blockNumber: receipt.blockNumber })).toBe(
      coinbaseBefore + receipt.gasUsed * tip,
    );

    // One hash everywhere: tx lookup, block body, receipt.
    const tx = await getTransaction(client, { hash });
    expect(tx).toMatchObject({ hash, type: "quantum", from: alice.address, to: bob, value, blockNumber: receipt.blockNumber });
    expect((tx as unknown as { publicKey: string }).publicKey).toBe(alice.publicKey);
    expect(block.transactions).toContain(hash);
    expect((await getTransactionReceipt(client, { hash })).blockHash).toBe(block.hash);

    const status = await getQuantumTransactionStatus(client, { hash });
    expect(status.status).toBe("success");
    expect(status.confirmations).toBeGreaterThanOrEqual(3);
    expect(await getPendingNonce(client, { address: alice.address })).toEqual({ latest: 1, pending: 1 });
  });

  test("raw broadcast with sendRawQuantumTransaction; pending status before mining", async () => {
    const d = devnet();
    const client = d.publicClient();
    const carol = await createFundedAccount(d, Q);
    const { raw, hash } = transfer(carol, { nonce: 0, to: "0x000000000000000000000000000000000000ca01", value: 5n });
    expect(await sendRawQuantumTransaction(client, { serializedTransaction: raw })).toEqual({ hash });
    // Resubmitting the same bytes is idempotent.
    expect(await sendRawQuantumTransaction(client, { serializedTransaction: raw })).toEqual({ hash });
    const receipt = await waitForTransactionReceipt(client, { hash, pollingInterval: 50 });
    expect(receipt.status).toBe("success");
    expect(await getBalance(client, { address: "0x000000000000000000000000000000000000ca01" })).toBe(5n);
  });

  test("unknown hash reads as unknown", async () => {
    const client = devnet().publicClient();
    expect(await getQuantumTransactionStatus(client, { hash: `0x${"12".repeat(32)}` })).toEqual({ status: "unknown", confirmations: 0 });
  });
});
