import {
  buildQuantumTransfer,
  CallRevertedError,
  ERC20_ABI,
  erc20TransferCalldata,
  estimateQuantumFees,
  getPendingNonce,
  NotAnErc20ContractError,
  quantumSandbox,
  readErc20Balance,
  readErc20Metadata,
  readLatestBalance,
  sendRawQuantumTransaction,
  signQuantumTransaction,
  mapRpcError,
} from "@qc/chain";
import { QUANTUM_TEST_TOKEN } from "@qc/chain/contracts";
import { createWalletClient, decodeEventLog, http, parseEventLogs, type Address } from "viem";
import { estimateGas, getLogs, getTransactionReceipt, simulateContract, waitForTransactionReceipt } from "viem/actions";
import { beforeAll, describe, expect, test } from "vitest";
import { createFundedAccount, useDevnet, type TestAccount } from "../src/testing";
import { Q } from "./helpers";

const devnet = useDevnet({ blockTimeMs: 100 });
let owner: TestAccount;
let token: Address;
const SUPPLY = 1_000_000n * 10n ** 6n;
const lower = (args: Record<string, unknown> | undefined) =>
  Object.fromEntries(Object.entries(args ?? {}).map(([k, v]) => [k, typeof v === "string" ? v.toLowerCase() : v]));

beforeAll(async () => {
  owner = await createFundedAccount(devnet(), 100n * Q);
});

describe("ERC-20 on the devnet (solc-compiled QuantumTestToken)", () => {
  test("deploy with viem's deployContract through an ML-DSA account", async () => {
    const d = devnet();
    const client = d.publicClient();
    const wallet = createWalletClient({ account: owner.account, chain: quantumSandbox, transport: http(d.url) });
    const hash = await wallet.deployContract({
      abi: QUANTUM_TEST_TOKEN.abi,
      bytecode: QUANTUM_TEST_TOKEN.bytecode,
      args: ["Quantum USD", "QUSD", 6, SUPPLY],
    });
    const receipt = await waitForTransactionReceipt(client, { hash, pollingInterval: 50 });
    expect(receipt.status).toBe("success");
    expect(receipt.contractAddress).toMatch(/^0x[0-9a-f]{40}$/);
    token = receipt.contractAddress!;
    expect(await readErc20Metadata(client, { token })).toEqual({ token, symbol: "QUSD", decimals: 6, name: "Quantum USD" });
    expect((await readErc20Balance(client, { token, owner: owner.address })).balance).toBe(SUPPLY);
    // The mint is logged in the deployment receipt.
    const [mint] = parseEventLogs({ abi: ERC20_ABI, logs: receipt.logs, eventName: "Transfer" });
    // viem decodes addresses checksummed; the product's canonical form is lower-case.
    expect(lower(mint?.args)).toEqual({ from: "0x0000000000000000000000000000000000000000", to: owner.address, value: SUPPLY });
  });

  test("transfer with calldata from erc20TransferCalldata; eth_getLogs returns the Transfer log with our hash", async () => {
    const d = devnet();
    const client = d.publicClient();
    const recipient = "0x00000000000000000000000000000000000e2c20";
    const amount = 123_456_789n;
    const data = erc20TransferCalldata({ to: recipient, amount });
    const gas = await estimateGas(client, { account: owner.address, to: token, data });
    expect(gas).toBeGreaterThan(21_000n);
    const fees = await estimateQuantumFees(client);
    const { pending: nonce } = await getPendingNonce(client, { address: owner.address });
    const tx = buildQuantumTransfer({ chainId: 20804, nonce, gas, ...fees, to: recipient, amount, token });
    expect(tx.data).toBe(data);
    const signed = signQuantumTransaction({ transaction: tx, secretKey: owner.secretKey, publicKey: owner.publicKey });
    const { hash } = await sendRawQuantumTransaction(client, { serializedTransaction: signed.serializedTransaction });
    expect(hash).toBe(signed.hash);
    const receipt = await waitForTransactionReceipt(client, { hash, pollingInterval: 50 });
    expect(receipt.status).toBe("success");
    expect(receipt.gasUsed).toBeLessThanOrEqual(gas);

    const logs = await getLogs(client, {
      address: token,
      event: ERC20_ABI.find((item) => item.type === "event" && item.name === "Transfer")!,
      args: { to: recipient },
      fromBlock: 0n,
      toBlock: "latest",
    });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ transactionHash: hash, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash });
    expect(lower(logs[0]!.args)).toEqual({ from: owner.address, to: recipient, value: amount });
    const rawLogs = await d.rpc<{ transactionHash: string; topics: string[]; data: `0x${string}` }[]>("eth_getLogs", [
      { blockHash: receipt.blockHash, address: token },
    ]);
    expect(rawLogs.map((l) => l.transactionHash)).toEqual([hash]);
    const decoded = decodeEventLog({ abi: ERC20_ABI, data: rawLogs[0]!.data, topics: rawLogs[0]!.topics as [`0x${string}`] });
    expect(decoded.eventName).toBe("Transfer");
    expect((await getTransactionReceipt(client, { hash })).logs[0]!.transactionHash).toBe(hash);

    expect((await readErc20Balance(client, { token, owner: recipient })).balance).toBe(amount);
    expect((await readErc20Balance(client, { token, owner: owner.address })).balance).toBe(SUPPLY - amount);
    // The latest balances, unpinned (what a transfer's checks read): the token's and the native one.
    expect(await readLatestBalance(client, { owner: recipient, token })).toBe(amount);
    expect(await readLatestBalance(client, { owner: owner.address, token })).toBe(SUPPLY - amount);
    expect(await readLatestBalance(client, { owner: owner.address })).toBe(await client.getBalance({ address: owner.address }));
  });

  test("a reverting call maps to CallRevertedError with viem decoding the custom error", async () => {
    const client = devnet().publicClient();
    const stranger = "0x00000000000000000000000000000000000bad00";
    const error = await simulateContract(client, {
      account: stranger,
      address: token,
      abi: QUANTUM_TEST_TOKEN.abi,
      functionName: "transfer",
      args: [owner.address, 1n],
    }).catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(/InsufficientBalance/);
    expect(mapRpcError(error)).toBeInstanceOf(CallRevertedError);
  });

  test("metadata of an address without code is NotAnErc20ContractError", async () => {
    const client = devnet().publicClient();
    await expect(readErc20Metadata(client, { token: "0x0000000000000000000000000000000000001234" })).rejects.toBeInstanceOf(
      NotAnErc20ContractError,
    );
  });
});
