import { erc20TransferCalldata } from "@qc/chain";
import { encodeAbiParameters, padHex, type Address, type Hex } from "viem";
import { beforeAll, describe, expect, test } from "vitest";
import { createFundedAccount, deployTestToken, useDevnet, type TestAccount } from "../src/testing";
import { GWEI, Q, rejection } from "./helpers";

const devnet = useDevnet();
const EEEE = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";
const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const A = "0xc000000000000000000000000000000000000000";
const B = "0xc100000000000000000000000000000000000000";
const C = "0xc200000000000000000000000000000000000000";
const word = (a: Address | bigint) => (typeof a === "bigint" ? padHex(`0x${a.toString(16)}`, { size: 32 }) : padHex(a, { size: 32 }));
// Hand-assembled contracts (no compiler needed):
const BALANCE_OF = "0x60003531600052602060" + "00f3"; // returns BALANCE(calldata[0:32])
const SLOAD_0 = "0x60005460005260206000f3"; // returns SLOAD(0)
const NUMBER_TIME = "0x4360005242602052" + "60406000f3"; // returns (NUMBER, TIMESTAMP)
const FORWARD = "0x600060006000600034600035" + "5af15000"; // CALL(gas, calldata[0:32], CALLVALUE), then STOP
const FORWARD_THEN_REVERT = "0x600060006000600034600035" + "5af150" + "60006000fd";
const errorPayload = (text: string): Hex => `0x08c379a0${encodeAbiParameters([{ type: "string" }], [text]).slice(2)}`;
/** Code that reverts with `payload` (CODECOPY of its own tail, then REVERT). */
const revertWith = (payload: Hex): Hex => {
  const size = ((payload.length - 2) / 2).toString(16).padStart(2, "0");
  return (`0x60${size}600c600039` + `60${size}6000fd` + payload.slice(2)) as Hex;
};

type Block = {
  number: Hex;
  hash: Hex;
  timestamp: Hex;
  baseFeePerGas: Hex;
  gasUsed: Hex;
  stateRoot: Hex;
  transactions: unknown[];
  calls: Call[];
};
type Call = { status: Hex; returnData: Hex; gasUsed: Hex; logs: Log[]; error?: { code: number; message: string; data?: Hex } };
type Log = { address: Address; topics: Hex[]; data: Hex; blockHash: Hex; transactionHash: Hex; logIndex: Hex };

const simulate = (payload: Record<string, unknown>, block: unknown = "latest") => devnet().rpc<Block[]>("eth_simulateV1", [payload, block]);
const readerFee = { from: A, gas: "0x186a0", maxFeePerGas: `0x${(10n * GWEI).toString(16)}` };
const balanceCall = (address: Address) => ({ ...readerFee, to: C, input: word(address) });
const withBalanceReader = { [C]: { code: BALANCE_OF }, [A]: { balance: `0x${Q.toString(16)}` } };

let owner: TestAccount;
beforeAll(async () => {
  owner = await createFundedAccount(devnet(), 100n * Q);
});

describe("eth_simulateV1 on the devnet", () => {
  test("a native transfer with traceTransfers gives the 0xeeee Transfer log and moves the balances, fee included", async () => {
    const d = devnet();
    const to = "0x00000000000000000000000000000000000d0d01";
    const before = await d.rpc<Hex>("eth_getBalance", [owner.address, "latest"]);
    const [block] = await simulate({
      blockStateCalls: [
        {
          stateOverrides: withBalanceReader,
          calls: [
            { from: owner.address, to, value: "0x3e8", maxFeePerGas: `0x${(10n * GWEI).toString(16)}`, maxPriorityFeePerGas: "0x1" },
            balanceCall(owner.address),
            balanceCall(to),
          ],
        },
      ],
      traceTransfers: true,
      validation: true,
    });
    const [transfer, ownerAfter, toAfter] = block!.calls;
    expect(transfer).toMatchObject({ status: "0x1", returnData: "0x", gasUsed: "0x5208" });
    expect(transfer!.logs).toHaveLength(1);
    expect(transfer!.logs[0]).toMatchObject({
      address: EEEE,
      topics: [TRANSFER, word(owner.address), word(to)],
      data: word(1000n),
      blockHash: block!.hash,
      transactionHash: block!.transactions[0],
      logIndex: "0x0",
    });
    const baseFee = BigInt(block!.baseFeePerGas);
    expect(baseFee).toBeGreaterThan(0n); // validation: the EIP-1559 base fee, not 0
    expect(BigInt(ownerAfter!.returnData)).toBe(BigInt(before) - 1000n - 21_000n * (baseFee + 1n));
    expect(BigInt(toAfter!.returnData)).toBe(1000n);
  });

  test("an ERC-20 transfer gives the token's Transfer log; a failing one reverts with its data", async () => {
    const d = devnet();
    const token = await deployTestToken(d, owner, { supply: 1_000_000n });
    const to = "0x00000000000000000000000000000000000d0d02";
    const [block] = await simulate({
      blockStateCalls: [
        {
          calls: [
            { from: owner.address, to: token, input: erc20TransferCalldata({ to, amount: 250n }) },
            { from: to, to: token, input: erc20TransferCalldata({ to: owner.address, amount: 251n }) },
          ],
        },
      ],
      traceTransfers: true,
    });
    const [ok, failed] = block!.calls;
    expect(ok!.status).toBe("0x1");
    expect(ok!.logs).toEqual([
      expect.objectContaining({ address: token, topics: [TRANSFER, word(owner.address), word(to)], data: word(250n) }),
    ]);
    // QuantumTestToken's InsufficientBalance(uint256 available, uint256 required) custom error.
    expect(failed).toMatchObject({ status: "0x0", returnData: "0x", logs: [], error: { code: 3, message: "execution reverted" } });
    expect(failed!.error!.data).toBe(`0xcf479181${word(250n).slice(2)}${word(251n).slice(2)}`);
  });

  test("a revert carries its Error(string) reason and data; a value call through a contract logs both hops, none when it reverts", async () => {
    const target = "0x00000000000000000000000000000000000d0d03";
    const [block] = await simulate({
      blockStateCalls: [
        {
          stateOverrides: {
            [A]: { balance: "0x2710" },
            [B]: { code: revertWith(errorPayload("nope")) },
            [C]: { code: FORWARD },
            [target]: { code: FORWARD_THEN_REVERT },
          },
          calls: [
            { from: A, to: B, value: "0x1" },
            { from: A, to: C, value: "0x64", input: word(target as Address) },
            { from: A, to: C, value: "0x64", input: word("0x00000000000000000000000000000000000d0d04") },
            { from: A, to: target, value: "0x64", input: word("0x00000000000000000000000000000000000d0d04") },
          ],
        },
      ],
      traceTransfers: true,
    });
    const [reverted, innerReverted, forwarded, topReverted] = block!.calls;
    expect(reverted).toMatchObject({
      status: "0x0",
      logs: [],
      error: { code: 3, message: "execution reverted: nope", data: errorPayload("nope") },
    });
    // C forwards to `target`, which reverts: the outer transfer stays, the inner one is gone.
    expect(innerReverted!.status).toBe("0x1");
    expect(innerReverted!.logs.map((l) => l.topics.slice(1))).toEqual([[word(A), word(C)]]);
    expect(forwarded!.logs.map((l) => [l.address, ...l.topics.slice(1), l.data])).toEqual([
      [EEEE, word(A), word(C), word(100n)],
      [EEEE, word(C), word("0x00000000000000000000000000000000000d0d04"), word(100n)],
    ]);
    expect(topReverted).toMatchObject({ status: "0x0", logs: [], error: { code: 3, message: "execution reverted" } });
    // Log indexes run across the block.
    expect(forwarded!.logs.map((l) => l.logIndex)).toEqual(["0x1", "0x2"]);
  });

  test("traceTransfers logs a CREATE endowment to the new address and a SELFDESTRUCT payout", async () => {
    const beneficiary = "0x00000000000000000000000000000000000d0d05";
    const [block] = await simulate({
      blockStateCalls: [
        {
          stateOverrides: { [A]: { balance: "0x64" }, [C]: { balance: "0x1e8480", code: `0x73${beneficiary.slice(2)}ff` } },
          calls: [
            { from: A, value: "0x5", input: "0x00" },
            { from: A, to: C },
          ],
        },
      ],
      traceTransfers: true,
      returnFullTransactions: true,
    });
    const [create, destruct] = block!.calls;
    expect(create!.status).toBe("0x1");
    expect(create!.logs).toHaveLength(1);
    expect(create!.logs[0]!.topics[1]).toBe(word(A));
    expect(create!.logs[0]!.topics[2]).not.toBe(word(0n));
    expect(create!.logs[0]!.data).toBe(word(5n));
    expect(destruct!.logs.map((l) => [l.address, ...l.topics.slice(1), l.data])).toEqual([
      [EEEE, word(C), word(beneficiary), word(0x1e8480n)],
    ]);
  });

  test("state overrides: balance for an unfunded sender, code with state (whole storage) and stateDiff", async () => {
    const [first, second] = await simulate({
      blockStateCalls: [
        {
          stateOverrides: { [A]: { balance: "0x7d0", nonce: "0x5" }, [C]: { code: SLOAD_0, state: { [word(0n)]: word(42n) } } },
          calls: [{ from: A, to: B, value: "0x7d0" }, { to: C }],
        },
        { stateOverrides: { [C]: { stateDiff: { [word(0n)]: word(7n) } } }, calls: [{ to: C }] },
      ],
      returnFullTransactions: true,
    });
    expect(first!.calls.map((c) => c.status)).toEqual(["0x1", "0x1"]);
    expect(BigInt(first!.calls[1]!.returnData)).toBe(42n);
    expect(BigInt(second!.calls[0]!.returnData)).toBe(7n);
    // Full transactions: unsigned 0x51 transactions, the nonce from the overridden state.
    expect(first!.transactions[0]).toMatchObject({
      type: "0x51",
      from: A,
      to: B,
      nonce: "0x5",
      value: "0x7d0",
      signature: "0x",
      publicKey: "0x",
    });
    await expect(
      rejection(simulate({ blockStateCalls: [{ stateOverrides: { [C]: { state: {}, stateDiff: {} } } }] })),
    ).resolves.toMatchObject({
      code: -32602,
    });
  });

  test("several blocks: number and time overrides, empty blocks filled in, the ordering errors", async () => {
    const d = devnet();
    const head = BigInt(await d.rpc<Hex>("eth_blockNumber"));
    const headTime = BigInt((await d.rpc<{ timestamp: Hex }>("eth_getBlockByNumber", ["latest", false])).timestamp);
    const blocks = await simulate({
      blockStateCalls: [
        { stateOverrides: { [C]: { code: NUMBER_TIME } }, calls: [{ to: C }] },
        {
          blockOverrides: {
            number: `0x${(head + 4n).toString(16)}`,
            time: `0x${(headTime + 100n).toString(16)}`,
            baseFeePerGas: "0x7",
            feeRecipient: B,
          },
          calls: [{ to: C }],
        },
      ],
    });
    expect(blocks.map((b) => BigInt(b.number))).toEqual([head + 1n, head + 2n, head + 3n, head + 4n]);
    expect(blocks.map((b) => BigInt(b.timestamp))).toEqual([headTime + 1n, headTime + 2n, headTime + 3n, headTime + 100n]);
    expect(blocks.map((b) => b.calls.length)).toEqual([1, 0, 0, 1]);
    expect(blocks[3]).toMatchObject({ baseFeePerGas: "0x7", miner: B, parentHash: blocks[2]!.hash });
    const read = (b: Block) => [BigInt(b.calls[0]!.returnData.slice(0, 66)), BigInt(`0x${b.calls[0]!.returnData.slice(66)}`)];
    expect(read(blocks[0]!)).toEqual([head + 1n, headTime + 1n]);
    expect(read(blocks[3]!)).toEqual([head + 4n, headTime + 100n]);

    const n = (x: bigint) => `0x${x.toString(16)}`;
    await expect(
      rejection(
        simulate({ blockStateCalls: [{ blockOverrides: { number: n(head + 5n) } }, { blockOverrides: { number: n(head + 3n) } }] }),
      ),
    ).resolves.toMatchObject({ code: -38020 });
    await expect(
      rejection(
        simulate({ blockStateCalls: [{ blockOverrides: { number: n(head + 2n) } }, {}, { blockOverrides: { number: n(head + 3n) } }] }),
      ),
    ).resolves.toMatchObject({ code: -38020 });
    await expect(
      rejection(
        simulate({ blockStateCalls: [{ blockOverrides: { time: n(headTime + 10n) } }, { blockOverrides: { time: n(headTime + 10n) } }] }),
      ),
    ).resolves.toMatchObject({ code: -38021 });
    await expect(rejection(simulate({ blockStateCalls: Array.from({ length: 257 }, () => ({})) }))).resolves.toMatchObject({
      code: -38026,
    });
    await expect(rejection(simulate({ blockStateCalls: [{}] }, n(head + 10n)))).resolves.toMatchObject({
      code: -32000,
      message: "header not found",
    });
  });

  test("validation errors answer the spec's -380xx codes", async () => {
    const d = devnet();
    const nonce = Number(await d.rpc<Hex>("eth_getTransactionCount", [owner.address, "latest"]));
    const fee = { maxFeePerGas: `0x${(10n * GWEI).toString(16)}` };
    const code = async (payload: Record<string, unknown>) => (await rejection(simulate(payload))).code;
    const one = (call: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      blockStateCalls: [{ calls: [call], ...extra }],
      validation: true,
    });
    expect(
      await code(
        one({ from: owner.address, to: B, nonce: "0x0", ...fee, ...{} }, { stateOverrides: { [owner.address]: { nonce: "0x3" } } }),
      ),
    ).toBe(-38010);
    expect(await code(one({ from: owner.address, to: B, nonce: `0x${(nonce + 5).toString(16)}`, ...fee }))).toBe(-38011);
    expect(await code(one({ from: owner.address, to: B }))).toBe(-38012); // maxFeePerGas 0 under the base fee
    expect(await code(one({ from: owner.address, to: B, gas: "0x5207", ...fee }))).toBe(-38013);
    expect(await code(one({ from: A, to: B, value: "0x1", ...fee }))).toBe(-38014);
    expect(await code(one({ from: owner.address, to: B, gas: "0x2000000", ...fee }))).toBe(-38015);
    expect(await code(one({ from: C, to: B, ...fee }, { stateOverrides: { [C]: { code: SLOAD_0, balance: "0xffffffffffffffff" } } }))).toBe(
      -38024,
    );
    expect(await code({ blockStateCalls: [{ calls: [{ input: `0x${"00".repeat(49_153)}` }] }] })).toBe(-38025);
    // Without validation the intrinsic gas, the funds and the block gas are still checked; nonce and fee cap are not.
    expect(await code({ blockStateCalls: [{ calls: [{ from: A, to: B, value: "0x1" }] }] })).toBe(-38014);
    expect(await code({ blockStateCalls: [{ calls: [{ from: A, to: B, gas: "0x0" }] }] })).toBe(-38013);
    const [free] = await simulate({
      blockStateCalls: [{ blockOverrides: { baseFeePerGas: "0xa" }, calls: [{ from: B, to: B, nonce: "0x64" }] }],
    });
    expect(free!.calls[0]!.status).toBe("0x1");
  });

  test("the real chain is untouched: head, state root, balances and nonces", async () => {
    const d = devnet();
    const before = await Promise.all([
      d.rpc("eth_getBlockByNumber", ["latest", false]),
      d.rpc("eth_getBalance", [owner.address, "latest"]),
      d.rpc("eth_getTransactionCount", [owner.address, "latest"]),
      d.rpc("eth_getCode", [C, "latest"]),
    ]);
    await simulate({
      blockStateCalls: [
        {
          stateOverrides: { [owner.address]: { balance: "0x1", nonce: "0x99" }, [C]: { code: SLOAD_0 } },
          calls: [{ from: owner.address, to: B, value: "0x1" }],
        },
        { blockOverrides: { number: `0x${(BigInt((before[0] as { number: Hex }).number) + 9n).toString(16)}` } },
      ],
    });
    const after = await Promise.all([
      d.rpc("eth_getBlockByNumber", ["latest", false]),
      d.rpc("eth_getBalance", [owner.address, "latest"]),
      d.rpc("eth_getTransactionCount", [owner.address, "latest"]),
      d.rpc("eth_getCode", [C, "latest"]),
    ]);
    expect(after).toEqual(before);
    // A block mined afterwards builds on the real state.
    await d.mine(1);
    expect(await d.rpc("eth_getBalance", [owner.address, "latest"])).toBe(before[1]);
  });

  test("movePrecompileToAddress moves identity (0x04); moving a non-precompile or to itself is refused", async () => {
    const id = "0x0000000000000000000000000000000000000004";
    const moved = "0x0000000000000000000000000000000000123456";
    const [block] = await simulate({
      blockStateCalls: [
        {
          stateOverrides: { [id]: { movePrecompileToAddress: moved } },
          calls: [
            { to: moved, input: "0x1234" },
            { to: id, input: "0x1234" },
          ],
        },
      ],
    });
    expect(block!.calls.map((c) => c.returnData)).toEqual(["0x1234", "0x"]);
    await expect(
      rejection(simulate({ blockStateCalls: [{ stateOverrides: { [B]: { movePrecompileToAddress: C } } }] })),
    ).resolves.toMatchObject({ code: -32000 });
    await expect(
      rejection(simulate({ blockStateCalls: [{ stateOverrides: { [id]: { movePrecompileToAddress: id } } }] })),
    ).resolves.toMatchObject({ code: -38022 });
  });
});
