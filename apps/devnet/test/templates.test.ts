import { quantumSandbox, readErc20Metadata } from "@qc/chain";
import { compileContract, encodeTemplateDeployment, findContractTemplate, type ContractTemplate } from "@qc/chain/contracts";
import {
  BaseError as ViemBaseError,
  ContractFunctionRevertedError,
  createWalletClient,
  decodeErrorResult,
  getContractAddress,
  http,
  keccak256,
  parseEventLogs,
  toHex,
  type Abi,
  type Address,
  type Hex,
  type TransactionReceipt,
} from "viem";
import { getBalance, getBlock, getTransactionCount, readContract, simulateContract, waitForTransactionReceipt } from "viem/actions";
import { beforeAll, describe, expect, test } from "vitest";
import { createFundedAccount, useDevnet, type TestAccount } from "../src/testing";
import { Q } from "./helpers";

// Interval blocks, because the timelock's rule is about block timestamps (wall-clock seconds).
const devnet = useDevnet({ blockTimeMs: 200 });

const FIXED = findContractTemplate("erc20-fixed-supply")!;
const ROLES = findContractTemplate("erc20-mint-burn")!;
const VAULT = findContractTemplate("timelock-vault")!;
const MAX_UINT256 = 2n ** 256n - 1n;
const lower = (value: unknown) => (typeof value === "string" ? value.toLowerCase() : value);

let alice: TestAccount;
let bob: TestAccount;
let carol: TestAccount;

beforeAll(async () => {
  [alice, bob, carol] = await Promise.all([
    createFundedAccount(devnet(), 100n * Q),
    createFundedAccount(devnet(), 100n * Q),
    createFundedAccount(devnet(), 100n * Q),
  ]);
});

function walletOf(account: TestAccount) {
  return createWalletClient({ account: account.account, chain: quantumSandbox, transport: http(devnet().url) });
}

async function receiptOf(hash: Hex): Promise<TransactionReceipt> {
  const receipt = await waitForTransactionReceipt(devnet().publicClient(), { hash, pollingInterval: 50 });
  expect(receipt.status).toBe("success");
  return receipt;
}

/** Deploys with the exact creation data the service builds (`encodeTemplateDeployment`). */
async function deploy(template: ContractTemplate, from: TestAccount, constructorArgs: Record<string, unknown>, value = 0n) {
  const { data } = encodeTemplateDeployment({ template, constructorArgs });
  const receipt = await receiptOf(await walletOf(from).sendTransaction({ data, value }));
  expect(receipt.contractAddress).toMatch(/^0x[0-9a-f]{40}$/);
  return { address: receipt.contractAddress as Address, receipt };
}

function read<T>(template: { artifact: { abi: Abi } }, address: Address, functionName: string, args: unknown[] = []): Promise<T> {
  return readContract(devnet().publicClient(), { address, abi: template.artifact.abi, functionName, args }) as Promise<T>;
}

async function write(
  template: ContractTemplate,
  from: TestAccount,
  address: Address,
  functionName: string,
  args: unknown[] = [],
  value?: bigint,
) {
  return receiptOf(await walletOf(from).writeContract({ address, abi: template.artifact.abi, functionName, args, value } as never));
}

/** The custom error (name and arguments) a call reverts with, decoded from the node's revert data. */
async function revertOf(
  template: { artifact: { abi: Abi } },
  from: Address,
  address: Address,
  functionName: string,
  args: unknown[] = [],
  value?: bigint,
) {
  const error = await simulateContract(devnet().publicClient(), {
    account: from,
    address,
    abi: template.artifact.abi,
    functionName,
    args,
    value,
  } as never).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `${functionName} was expected to revert`).toBeInstanceOf(ViemBaseError);
  const reverted = (error as ViemBaseError).walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
  expect(reverted?.data, String(error)).toBeDefined();
  return { name: reverted!.data!.errorName, args: (reverted!.data!.args ?? []).map(lower) };
}

/** The custom error a deployment reverts with, from an `eth_call` of its creation data. */
async function creationRevert(template: ContractTemplate, from: Address, constructorArgs: Record<string, unknown>) {
  const { data } = encodeTemplateDeployment({ template, constructorArgs });
  const error = await devnet()
    .rpc("eth_call", [{ from, data }, "latest"])
    .then(
      () => undefined,
      (e: { data?: Hex }) => e,
    );
  expect(error?.data, "the creation was expected to revert").toBeDefined();
  const decoded = decodeErrorResult({ abi: template.artifact.abi, data: error!.data! });
  return { name: decoded.errorName, args: (decoded.args ?? []).map(lower) };
}

function transfersIn(template: ContractTemplate, receipt: TransactionReceipt) {
  return parseEventLogs({ abi: template.artifact.abi, logs: receipt.logs, eventName: "Transfer" }).map((log) => {
    const args = log.args as { from: string; to: string; value: bigint };
    return { from: args.from.toLowerCase(), to: args.to.toLowerCase(), value: args.value };
  });
}

describe.each([
  ["erc20-fixed-supply", FIXED],
  ["erc20-mint-burn", ROLES],
] as const)("%s: ERC-20 behaviour", (_id, template) => {
  const SUPPLY = 1_000_000n * 10n ** 6n;
  let token: Address;

  beforeAll(async () => {
    const holderArg = template === FIXED ? "initialHolder" : "admin";
    const { address, receipt } = await deploy(template, alice, {
      tokenName: "Quantum Dollar",
      tokenSymbol: "QD",
      tokenDecimals: "6",
      initialSupply: SUPPLY.toString(),
      [holderArg]: alice.address,
    });
    token = address;
    expect(transfersIn(template, receipt)).toEqual([
      { from: "0x0000000000000000000000000000000000000000", to: alice.address, value: SUPPLY },
    ]);
  });

  test("metadata and supply as deployed; the asset service's reader sees an ERC-20", async () => {
    expect(await readErc20Metadata(devnet().publicClient(), { token })).toEqual({
      token,
      symbol: "QD",
      decimals: 6,
      name: "Quantum Dollar",
    });
    expect(await read<bigint>(template, token, "totalSupply")).toBe(SUPPLY);
    expect(await read<bigint>(template, token, "balanceOf", [alice.address])).toBe(SUPPLY);
  });

  test("transfer moves balances, logs Transfer, keeps the supply; overdraft and bad receivers revert", async () => {
    const receipt = await write(template, alice, token, "transfer", [bob.address, 250n]);
    expect(transfersIn(template, receipt)).toEqual([{ from: alice.address, to: bob.address, value: 250n }]);
    expect(await read<bigint>(template, token, "balanceOf", [bob.address])).toBe(250n);
    expect(await read<bigint>(template, token, "balanceOf", [alice.address])).toBe(SUPPLY - 250n);
    expect(await read<bigint>(template, token, "totalSupply")).toBe(SUPPLY);

    // A transfer to oneself changes nothing.
    await write(template, bob, token, "transfer", [bob.address, 250n]);
    expect(await read<bigint>(template, token, "balanceOf", [bob.address])).toBe(250n);

    expect(await revertOf(template, bob.address, token, "transfer", [carol.address, 251n])).toEqual({
      name: "ERC20InsufficientBalance",
      args: [bob.address, 250n, 251n],
    });
    expect(await revertOf(template, bob.address, token, "transfer", ["0x0000000000000000000000000000000000000000", 1n])).toEqual({
      name: "ERC20InvalidReceiver",
      args: ["0x0000000000000000000000000000000000000000"],
    });
    expect(await revertOf(template, bob.address, token, "transfer", [token, 1n])).toEqual({ name: "ERC20InvalidReceiver", args: [token] });
  });

  test("allowances: approve, transferFrom spends exactly, infinite approval is not spent, zero spender reverts", async () => {
    const approval = await write(template, alice, token, "approve", [bob.address, 100n]);
    const [event] = parseEventLogs({ abi: template.artifact.abi, logs: approval.logs, eventName: "Approval" });
    expect(Object.fromEntries(Object.entries(event!.args as Record<string, unknown>).map(([k, v]) => [k, lower(v)]))).toEqual({
      owner: alice.address,
      spender: bob.address,
      value: 100n,
    });
    expect(await revertOf(template, bob.address, token, "transferFrom", [alice.address, carol.address, 101n])).toEqual({
      name: "ERC20InsufficientAllowance",
      args: [bob.address, 100n, 101n],
    });
    const spend = await write(template, bob, token, "transferFrom", [alice.address, carol.address, 60n]);
    expect(transfersIn(template, spend)).toEqual([{ from: alice.address, to: carol.address, value: 60n }]);
    expect(await read<bigint>(template, token, "allowance", [alice.address, bob.address])).toBe(40n);
    expect(await read<bigint>(template, token, "balanceOf", [carol.address])).toBe(60n);

    // approve overwrites, it does not add.
    await write(template, alice, token, "approve", [bob.address, 5n]);
    expect(await read<bigint>(template, token, "allowance", [alice.address, bob.address])).toBe(5n);

    await write(template, alice, token, "approve", [bob.address, MAX_UINT256]);
    await write(template, bob, token, "transferFrom", [alice.address, carol.address, 1_000n]);
    expect(await read<bigint>(template, token, "allowance", [alice.address, bob.address])).toBe(MAX_UINT256);

    expect(await revertOf(template, alice.address, token, "approve", ["0x0000000000000000000000000000000000000000", 1n])).toEqual({
      name: "ERC20InvalidSpender",
      args: ["0x0000000000000000000000000000000000000000"],
    });
    // An allowance larger than the owner's balance still cannot overdraw.
    expect((await revertOf(template, bob.address, token, "transferFrom", [alice.address, carol.address, SUPPLY])).name).toBe(
      "ERC20InsufficientBalance",
    );
  });
});

describe("erc20-fixed-supply: holder", () => {
  test("the zero address as initialHolder (or leaving it out) mints to the deployer; the token itself is refused", async () => {
    const { address: implicit } = await deploy(FIXED, bob, { tokenName: "B", tokenSymbol: "B", tokenDecimals: "0", initialSupply: "7" });
    expect(await read<bigint>(FIXED, implicit, "balanceOf", [bob.address])).toBe(7n);
    const { address: toCarol } = await deploy(FIXED, bob, {
      tokenName: "C",
      tokenSymbol: "C",
      tokenDecimals: "18",
      initialSupply: "9",
      initialHolder: carol.address,
    });
    expect(await read<bigint>(FIXED, toCarol, "balanceOf", [carol.address])).toBe(9n);
    expect(await read<bigint>(FIXED, toCarol, "balanceOf", [bob.address])).toBe(0n);

    // The address the next deployment will get, as its own holder: the supply would be stuck.
    const nonce = await getTransactionCount(devnet().publicClient(), { address: bob.address });
    const next = getContractAddress({ from: bob.address, nonce: BigInt(nonce) }).toLowerCase() as Address;
    expect(
      await creationRevert(FIXED, bob.address, {
        tokenName: "D",
        tokenSymbol: "D",
        tokenDecimals: "0",
        initialSupply: "1",
        initialHolder: next,
      }),
    ).toEqual({
      name: "ERC20InvalidReceiver",
      args: [next],
    });
  });

  test("nobody can mint, burn or take ownership: the ABI has no such function", () => {
    const names = FIXED.artifact.abi.filter((item) => item.type === "function").map((item) => (item as { name: string }).name);
    expect(names.sort()).toEqual([
      "allowance",
      "approve",
      "balanceOf",
      "decimals",
      "name",
      "symbol",
      "totalSupply",
      "transfer",
      "transferFrom",
    ]);
  });
});

describe("erc20-mint-burn: roles", () => {
  let token: Address;
  let MINTER: Hex;
  let BURNER: Hex;
  const ADMIN: Hex = toHex(0, { size: 32 });

  beforeAll(async () => {
    ({ address: token } = await deploy(ROLES, alice, {
      tokenName: "Roles",
      tokenSymbol: "RL",
      tokenDecimals: "18",
      initialSupply: "1000",
    }));
    MINTER = await read<Hex>(ROLES, token, "MINTER_ROLE");
    BURNER = await read<Hex>(ROLES, token, "BURNER_ROLE");
    expect(MINTER).toBe(keccak256(toHex("MINTER_ROLE")));
    expect(BURNER).toBe(keccak256(toHex("BURNER_ROLE")));
  });

  test("the deployer (admin left out) is the only admin and holds the initial supply, but may not mint or burn", async () => {
    expect(await read<boolean>(ROLES, token, "hasRole", [ADMIN, alice.address])).toBe(true);
    expect(await read<bigint>(ROLES, token, "adminCount")).toBe(1n);
    expect(await read<bigint>(ROLES, token, "balanceOf", [alice.address])).toBe(1000n);
    expect(await read<boolean>(ROLES, token, "hasRole", [MINTER, alice.address])).toBe(false);
    expect(await revertOf(ROLES, alice.address, token, "mint", [alice.address, 1n])).toEqual({
      name: "AccessControlUnauthorizedAccount",
      args: [alice.address, MINTER],
    });
    expect(await revertOf(ROLES, alice.address, token, "burn", [1n])).toEqual({
      name: "AccessControlUnauthorizedAccount",
      args: [alice.address, BURNER],
    });
  });

  test("the token itself as admin is refused at deployment", async () => {
    const nonce = await getTransactionCount(devnet().publicClient(), { address: carol.address });
    const next = getContractAddress({ from: carol.address, nonce: BigInt(nonce) }).toLowerCase() as Address;
    expect(
      await creationRevert(ROLES, carol.address, { tokenName: "X", tokenSymbol: "X", tokenDecimals: "0", initialSupply: "0", admin: next }),
    ).toEqual({
      name: "AccessControlInvalidAccount",
      args: [next],
    });
  });

  test("only an admin grants; a minter mints (supply and balance grow, Transfer from zero)", async () => {
    expect(await revertOf(ROLES, bob.address, token, "grantRole", [MINTER, bob.address])).toEqual({
      name: "AccessControlUnauthorizedAccount",
      args: [bob.address, ADMIN],
    });
    const grant = await write(ROLES, alice, token, "grantRole", [MINTER, bob.address]);
    const [granted] = parseEventLogs({ abi: ROLES.artifact.abi, logs: grant.logs, eventName: "RoleGranted" });
    expect(Object.values(granted!.args as Record<string, unknown>).map(lower)).toEqual([MINTER, bob.address, alice.address]);
    expect(await read<boolean>(ROLES, token, "hasRole", [MINTER, bob.address])).toBe(true);

    const mint = await write(ROLES, bob, token, "mint", [carol.address, 500n]);
    expect(transfersIn(ROLES, mint)).toEqual([{ from: "0x0000000000000000000000000000000000000000", to: carol.address, value: 500n }]);
    expect(await read<bigint>(ROLES, token, "totalSupply")).toBe(1500n);
    expect(await read<bigint>(ROLES, token, "balanceOf", [carol.address])).toBe(500n);

    expect(await revertOf(ROLES, bob.address, token, "mint", [token, 1n])).toEqual({ name: "ERC20InvalidReceiver", args: [token] });
    // The supply cannot wrap around 2^256.
    expect((await revertOf(ROLES, bob.address, token, "mint", [carol.address, MAX_UINT256])).name).toBe("Panic");
  });

  test("a burner burns its own tokens, and others' only within an allowance", async () => {
    await write(ROLES, alice, token, "grantRole", [BURNER, carol.address]);
    const burn = await write(ROLES, carol, token, "burn", [200n]);
    expect(transfersIn(ROLES, burn)).toEqual([{ from: carol.address, to: "0x0000000000000000000000000000000000000000", value: 200n }]);
    expect(await read<bigint>(ROLES, token, "totalSupply")).toBe(1300n);
    expect(await revertOf(ROLES, carol.address, token, "burn", [301n])).toEqual({
      name: "ERC20InsufficientBalance",
      args: [carol.address, 300n, 301n],
    });

    expect(await revertOf(ROLES, carol.address, token, "burnFrom", [alice.address, 1n])).toEqual({
      name: "ERC20InsufficientAllowance",
      args: [carol.address, 0n, 1n],
    });
    await write(ROLES, alice, token, "approve", [carol.address, 100n]);
    await write(ROLES, carol, token, "burnFrom", [alice.address, 100n]);
    expect(await read<bigint>(ROLES, token, "balanceOf", [alice.address])).toBe(900n);
    expect(await read<bigint>(ROLES, token, "allowance", [alice.address, carol.address])).toBe(0n);
    expect(await read<bigint>(ROLES, token, "totalSupply")).toBe(1200n);
    // An allowance alone is not the role.
    await write(ROLES, alice, token, "approve", [bob.address, 10n]);
    expect(await revertOf(ROLES, bob.address, token, "burnFrom", [alice.address, 1n])).toEqual({
      name: "AccessControlUnauthorizedAccount",
      args: [bob.address, BURNER],
    });
  });

  test("revoke and renounce take effect; unknown roles and bad accounts are refused; the last admin stays", async () => {
    const revoke = await write(ROLES, alice, token, "revokeRole", [MINTER, bob.address]);
    expect(parseEventLogs({ abi: ROLES.artifact.abi, logs: revoke.logs, eventName: "RoleRevoked" })).toHaveLength(1);
    expect(await revertOf(ROLES, bob.address, token, "mint", [bob.address, 1n])).toEqual({
      name: "AccessControlUnauthorizedAccount",
      args: [bob.address, MINTER],
    });

    await write(ROLES, carol, token, "renounceRole", [BURNER]);
    expect(await read<boolean>(ROLES, token, "hasRole", [BURNER, carol.address])).toBe(false);

    const unknown = keccak256(toHex("PAUSER_ROLE"));
    expect(await revertOf(ROLES, alice.address, token, "grantRole", [unknown, bob.address])).toEqual({
      name: "AccessControlUnknownRole",
      args: [unknown],
    });
    expect(await revertOf(ROLES, alice.address, token, "grantRole", [MINTER, "0x0000000000000000000000000000000000000000"])).toEqual({
      name: "AccessControlInvalidAccount",
      args: ["0x0000000000000000000000000000000000000000"],
    });

    expect(await revertOf(ROLES, alice.address, token, "renounceRole", [ADMIN])).toEqual({ name: "AccessControlLastAdmin", args: [] });
    expect(await revertOf(ROLES, alice.address, token, "revokeRole", [ADMIN, alice.address])).toEqual({
      name: "AccessControlLastAdmin",
      args: [],
    });

    // With a second admin, the first may leave; the second then cannot.
    await write(ROLES, alice, token, "grantRole", [ADMIN, bob.address]);
    expect(await read<bigint>(ROLES, token, "adminCount")).toBe(2n);
    await write(ROLES, alice, token, "renounceRole", [ADMIN]);
    expect(await read<bigint>(ROLES, token, "adminCount")).toBe(1n);
    expect(await revertOf(ROLES, alice.address, token, "grantRole", [MINTER, alice.address])).toEqual({
      name: "AccessControlUnauthorizedAccount",
      args: [alice.address, ADMIN],
    });
    expect(await revertOf(ROLES, bob.address, token, "renounceRole", [ADMIN])).toEqual({ name: "AccessControlLastAdmin", args: [] });
  });
});

describe("timelock-vault", () => {
  async function latestTimestamp(): Promise<bigint> {
    return (await getBlock(devnet().publicClient(), { blockTag: "latest" })).timestamp;
  }

  test("deposits from anyone; the beneficiary withdraws everything only from the release time on", async () => {
    // Two seconds ahead of the head: long enough to try too early, short enough to wait for.
    const releaseTime = (await latestTimestamp()) + 2n;
    const { address: vault } = await deploy(VAULT, alice, { vaultBeneficiary: bob.address, vaultReleaseTime: releaseTime.toString() });
    expect(lower(await read<string>(VAULT, vault, "beneficiary"))).toBe(bob.address);
    expect(await read<bigint>(VAULT, vault, "releaseTime")).toBe(releaseTime);

    const deposit = await write(VAULT, alice, vault, "deposit", [], 3n * Q);
    const [deposited] = parseEventLogs({ abi: VAULT.artifact.abi, logs: deposit.logs, eventName: "Deposited" });
    expect(Object.values(deposited!.args as Record<string, unknown>).map(lower)).toEqual([alice.address, 3n * Q]);
    // A plain transfer is a deposit too.
    const plain = await receiptOf(await walletOf(carol).sendTransaction({ to: vault, value: Q }));
    expect(parseEventLogs({ abi: VAULT.artifact.abi, logs: plain.logs, eventName: "Deposited" })).toHaveLength(1);
    expect(await getBalance(devnet().publicClient(), { address: vault })).toBe(4n * Q);

    const early = await revertOf(VAULT, bob.address, vault, "withdraw");
    expect(early.name).toBe("StillLocked");
    expect(early.args[1]).toBe(releaseTime);
    expect(early.args[0] as bigint).toBeLessThan(releaseTime);
    expect(await revertOf(VAULT, alice.address, vault, "withdraw")).toEqual({ name: "NotBeneficiary", args: [alice.address] });
    expect(await revertOf(VAULT, alice.address, vault, "deposit", [], 0n)).toEqual({ name: "ZeroDeposit", args: [] });

    // Wait for the chain (not the test's clock) to reach the release time.
    while ((await latestTimestamp()) < releaseTime) await new Promise((resolve) => setTimeout(resolve, 200));
    // Still refused to anyone but the beneficiary after the release time.
    expect(await revertOf(VAULT, alice.address, vault, "withdraw")).toEqual({ name: "NotBeneficiary", args: [alice.address] });

    const before = await getBalance(devnet().publicClient(), { address: bob.address });
    const withdrawal = await write(VAULT, bob, vault, "withdraw");
    expect(withdrawal.blockNumber).toBeGreaterThan(0n);
    const block = await getBlock(devnet().publicClient(), { blockNumber: withdrawal.blockNumber });
    expect(block.timestamp).toBeGreaterThanOrEqual(releaseTime);
    const [withdrawn] = parseEventLogs({ abi: VAULT.artifact.abi, logs: withdrawal.logs, eventName: "Withdrawn" });
    expect(Object.values(withdrawn!.args as Record<string, unknown>).map(lower)).toEqual([bob.address, 4n * Q]);
    expect(await getBalance(devnet().publicClient(), { address: vault })).toBe(0n);
    const fee = withdrawal.gasUsed * withdrawal.effectiveGasPrice;
    expect(await getBalance(devnet().publicClient(), { address: bob.address })).toBe(before + 4n * Q - fee);

    expect(await revertOf(VAULT, bob.address, vault, "withdraw")).toEqual({ name: "NothingToWithdraw", args: [] });
  });

  test("the constructor refuses the zero beneficiary and a zero release time", async () => {
    const { data } = encodeTemplateDeployment({
      template: VAULT,
      constructorArgs: { vaultBeneficiary: bob.address, vaultReleaseTime: "1" },
    });
    // Bypass the off-chain validation to prove the contract checks on its own.
    const zeroBeneficiary = data.replace(bob.address.slice(2), "0".repeat(40)) as Hex;
    for (const [creation, errorName] of [
      [zeroBeneficiary, "InvalidBeneficiary"],
      [`${data.slice(0, -64)}${"0".repeat(64)}` as Hex, "InvalidReleaseTime"],
    ] as const) {
      const error = await devnet()
        .rpc("eth_call", [{ from: alice.address, data: creation }, "latest"])
        .then(
          () => undefined,
          (e: { data?: Hex }) => e,
        );
      expect(error?.data).toBeDefined();
      expect(decodeErrorResult({ abi: VAULT.artifact.abi, data: error!.data! }).errorName).toBe(errorName);
    }
  });

  test("a beneficiary that re-enters withdraw() is stopped by the guard; the outer withdrawal pays out once", async () => {
    const probe = compileContract("testing/ReentrantBeneficiary.sol", "ReentrantBeneficiary");
    const probeTemplate = { artifact: probe };
    const probeReceipt = await receiptOf(await walletOf(alice).deployContract({ abi: probe.abi, bytecode: probe.bytecode }));
    const attacker = probeReceipt.contractAddress as Address;
    const { address: vault } = await deploy(VAULT, alice, { vaultBeneficiary: attacker, vaultReleaseTime: "1" });
    await receiptOf(
      await walletOf(alice).writeContract({ address: attacker, abi: probe.abi, functionName: "setVault", args: [vault] } as never),
    );
    await write(VAULT, alice, vault, "deposit", [], 2n * Q);

    await receiptOf(
      await walletOf(alice).writeContract({ address: attacker, abi: probe.abi, functionName: "withdrawFromVault", args: [] } as never),
    );
    expect(await read<boolean>(probeTemplate, attacker, "reentryAttempted")).toBe(true);
    expect(await read<boolean>(probeTemplate, attacker, "reentrySucceeded")).toBe(false);
    const revertData = await read<Hex>(probeTemplate, attacker, "reentryRevertData");
    expect(decodeErrorResult({ abi: VAULT.artifact.abi, data: revertData }).errorName).toBe("ReentrantCall");
    expect(await getBalance(devnet().publicClient(), { address: attacker })).toBe(2n * Q);
    expect(await getBalance(devnet().publicClient(), { address: vault })).toBe(0n);
  });
});
