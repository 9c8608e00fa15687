import {
  FeeTooLowError,
  InsufficientFundsError,
  InvalidTransactionSignatureError,
  NonceTooLowError,
  parseQuantumTransaction,
  quantumSandbox,
  sendRawQuantumTransaction,
  serializeQuantumTransaction,
  WrongChainIdError,
  type QuantumTransactionSigned,
} from "@qc/chain";
import { createWalletClient, http } from "viem";
import { beforeAll, describe, expect, test } from "vitest";
import { createFundedAccount, useDevnet, type TestAccount } from "../src/testing";
import { GWEI, Q, rejection, signWithContext, transfer } from "./helpers";

const devnet = useDevnet();
const to = "0x00000000000000000000000000000000000000d1";
let alice: TestAccount;
let mallory: TestAccount;

beforeAll(async () => {
  alice = await createFundedAccount(devnet(), 5n * Q);
  mallory = await createFundedAccount(devnet(), 5n * Q);
});

async function expectRejected(raw: `0x${string}`, reason: string, text: RegExp) {
  const error = await rejection(devnet().rpc("eth_sendRawTransaction", [raw]));
  expect(error.code).toBe(-32003);
  expect(error.message).toMatch(text);
  expect(error.data).toEqual({ reason });
  return error;
}

describe("mempool admission rejects with a JSON-RPC error naming the reason", () => {
  test("a tampered field (value changed after signing)", async () => {
    const { raw } = transfer(alice, { nonce: 0, to, value: 1n });
    const parsed = parseQuantumTransaction(raw) as QuantumTransactionSigned;
    const tampered = serializeQuantumTransaction({ ...parsed, value: 10n ** 18n });
    await expectRejected(tampered, "INVALID_SIGNATURE", /^invalid signature/);
  });

  test("a tampered recipient", async () => {
    const parsed = parseQuantumTransaction(transfer(alice, { nonce: 0, to }).raw) as QuantumTransactionSigned;
    await expectRejected(
      serializeQuantumTransaction({ ...parsed, to: "0x00000000000000000000000000000000000000d2" }),
      "INVALID_SIGNATURE",
      /^invalid signature/,
    );
  });

  test("a signature with the wrong context", async () => {
    const { tx } = transfer(alice, { nonce: 0, to });
    await expectRejected(signWithContext(alice, tx, "QUANTUM-OWNERSHIP-v1"), "INVALID_SIGNATURE", /invalid signature/);
    await expectRejected(signWithContext(alice, tx, ""), "INVALID_SIGNATURE", /invalid signature/);
  });

  test("a signature by another key (claimed sender's public key attached)", async () => {
    const { tx } = transfer(alice, { nonce: 0, to });
    const byMallory = parseQuantumTransaction(transfer(mallory, { ...tx, nonce: 0, to }).raw) as QuantumTransactionSigned;
    const forged = serializeQuantumTransaction({ ...tx, signature: byMallory.signature, publicKey: alice.publicKey });
    await expectRejected(forged, "INVALID_SIGNATURE", /invalid signature/);
  });

  test("the wrong chain id", async () => {
    const { raw } = transfer(alice, { nonce: 0, to, chainId: 20803 });
    await expectRejected(raw, "WRONG_CHAIN_ID", /^wrong chain id: expected 20804, got 20803/);
  });

  test("another transaction type", async () => {
    await expectRejected(
      "0x02f86c8251440180843b9aca00825208940000000000000000000000000000000000000001018080c0",
      "UNSUPPORTED_TYPE",
      /unsupported transaction type/,
    );
    await expectRejected("0x51c0", "MALFORMED", /^malformed transaction/);
  });

  test("nonce too low, fee too low, insufficient funds, intrinsic gas, replacement underpriced", async () => {
    const d = devnet();
    const first = transfer(alice, { nonce: 0, to });
    expect(await d.rpc("eth_sendRawTransaction", [first.raw])).toBe(first.hash);
    await d.mine();
    await expectRejected(
      transfer(alice, { nonce: 0, to, value: 2n }).raw,
      "NONCE_TOO_LOW",
      /^nonce too low: next nonce 1, transaction nonce 0/,
    );
    await expectRejected(
      transfer(alice, { nonce: 1, to, maxFeePerGas: GWEI / 2n, maxPriorityFeePerGas: 0n }).raw,
      "FEE_TOO_LOW",
      /^fee too low/,
    );
    await expectRejected(transfer(alice, { nonce: 1, to, value: 6n * Q }).raw, "INSUFFICIENT_FUNDS", /^insufficient funds/);
    await expectRejected(transfer(alice, { nonce: 1, to, gas: 20_999n }).raw, "INTRINSIC_GAS_TOO_LOW", /^intrinsic gas too low/);
    await expectRejected(transfer(alice, { nonce: 1000, to }).raw, "NONCE_TOO_HIGH", /^nonce too high/);

    const pending = transfer(alice, { nonce: 1, to, value: 3n });
    await d.rpc("eth_sendRawTransaction", [pending.raw]);
    await expectRejected(
      transfer(alice, { nonce: 1, to, value: 4n }).raw,
      "REPLACEMENT_UNDERPRICED",
      /^replacement transaction underpriced/,
    );
    const bumped = transfer(alice, { nonce: 1, to, value: 4n, maxFeePerGas: 4n * GWEI, maxPriorityFeePerGas: 2n * GWEI });
    expect(await d.rpc("eth_sendRawTransaction", [bumped.raw])).toBe(bumped.hash);
    expect(await d.rpc("eth_getTransactionByHash", [pending.hash])).toBeNull();
    await d.mine();
    expect(await d.rpc("eth_getBalance", [to, "latest"])).toBe("0x5");
  });
});

describe("typed errors through viem and @qc/chain", () => {
  test("each rejection maps to its error class", async () => {
    const client = devnet().publicClient();
    const cases = [
      [transfer(alice, { nonce: 0, to, value: 9n }).raw, NonceTooLowError],
      [transfer(alice, { nonce: 2, to, value: 6n * Q }).raw, InsufficientFundsError],
      [transfer(alice, { nonce: 2, to, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }).raw, FeeTooLowError],
      [transfer(alice, { nonce: 2, to, chainId: 1 }).raw, WrongChainIdError],
      [signWithContext(alice, transfer(alice, { nonce: 2, to }).tx, "QUANTUM-TX-v2"), InvalidTransactionSignatureError],
    ] as const;
    for (const [raw, ErrorClass] of cases) {
      const error = await sendRawQuantumTransaction(client, { serializedTransaction: raw }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ErrorClass);
      expect((error as Error & { details: string }).details).toMatch(/./);
    }
  });

  test("viem's wallet client surfaces the node's reason", async () => {
    const d = devnet();
    const poor = await createFundedAccount(d, 1000n);
    const wallet = createWalletClient({ account: poor.account, chain: quantumSandbox, transport: http(d.url, { retryCount: 0 }) });
    const error = await wallet.sendTransaction({ to, value: 1n, gas: 21_000n }).catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(/insufficient funds/);
  });
});
