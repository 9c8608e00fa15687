import { quantumSandbox } from "@qc/chain";
import { loadArtifact } from "@qc/chain/contracts";
import { createMemberFixture } from "@qc/core/testing";
import { createFundedAccount, type TestDevnet } from "@qc/devnet/testing";
import { createWalletClient, http, type Address } from "viem";
import { waitForTransactionReceipt } from "viem/actions";
import { describe, expect, it } from "vitest";
import { addGroup, requireApprovals, useApprovalStack } from "./approvals-helpers";
import { deployTestToken, expectError, NATIVE, newSignerKey, Q } from "./custody-helpers";
import { call, TEST_PEPPER, type TestServer } from "./harness";
import { fundedSource, nativeTransfer, waitForStatus, type FundedSource } from "./transfers-front-helpers";

const native = NATIVE.QUANTUM_SANDBOX;

/** POST /v1/transactions/simulate as `source`'s tenant, with no idempotency key. */
const simulate = (server: () => TestServer, source: Pick<FundedSource, "tenant">, body: unknown) =>
  call(server(), "/v1/transactions/simulate", {
    method: "POST",
    headers: { authorization: source.tenant.authorization, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** The catalog's FixedSupplyToken (ERC-6093 errors), its whole supply held by `holder`. */
async function deployFixedSupplyToken(devnet: TestDevnet, holder: Address, supply: bigint): Promise<Address> {
  const artifact = loadArtifact("FixedSupplyToken.json");
  const deployer = await createFundedAccount(devnet, 10n * Q);
  const wallet = createWalletClient({ account: deployer.account, chain: quantumSandbox, transport: http(devnet.url) });
  const hash = await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args: ["Fixed", "FIX", 6, supply, holder] });
  const receipt = await waitForTransactionReceipt(devnet.publicClient(), { hash, pollingInterval: 50 });
  expect(receipt.status).toBe("success");
  return receipt.contractAddress!.toLowerCase() as Address;
}

describe("pre-sign simulation (CONTRACT §20) on a node with eth_simulateV1", () => {
  const { t, devnet, server } = useApprovalStack();
  const source = (funds: bigint) => fundedSource(server, t.db, devnet(), funds);

  it("simulates a native transfer: the source loses amount + fee (gasUsed × effective price), the destination gains the amount", async () => {
    const s = await source(5n * Q);
    const destination = newSignerKey().address;
    const res = await simulate(server, s, nativeTransfer(s, Q, { destinationAddress: destination }));
    expect(res.status, res.text).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: "SUCCESS", revertReason: null, gasUsed: "21000", reason: null });
    expect(BigInt(body.blockNumber)).toBeGreaterThan(0n);
    expect(Date.parse(body.simulatedAt)).not.toBeNaN();
    const [from, to] = body.balanceChanges;
    expect(body.balanceChanges).toHaveLength(2);
    expect(to).toEqual({ address: destination, assetId: native, delta: Q.toString() });
    expect(from.address).toBe(s.wallet.address.toLowerCase());
    expect(from.assetId).toBe(native);
    const fee = -BigInt(from.delta) - Q;
    // 21000 gas at a price no higher than the caps the chain quotes (the devnet's base fee is above zero).
    expect(fee).toBeGreaterThan(0n);
    expect(fee % 21_000n).toBe(0n);
    // Nothing was written or sent: the source's nonce and balance are untouched.
    expect(await devnet().publicClient().getBalance({ address: s.wallet.address })).toBe(5n * Q);
  });

  it("simulates an ERC-20 transfer: token deltas from its Transfer log, the fee in native from the source", async () => {
    const { token, transfer } = await deployTestToken(devnet());
    const s = await source(Q);
    const asset = (await s.api.post("/v1/assets", { networkCode: "QUANTUM_SANDBOX", contractAddress: token })).json();
    await transfer(s.wallet.address, 1_000n);
    const destination = newSignerKey().address;
    const res = await simulate(server, s, nativeTransfer(s, 400n, { assetId: asset.id, destinationAddress: destination }));
    expect(res.status, res.text).toBe(200);
    const body = res.json();
    expect(body.status).toBe("SUCCESS");
    const from = s.wallet.address.toLowerCase();
    expect(body.balanceChanges).toEqual([
      { address: from, assetId: native, delta: expect.stringMatching(/^-[1-9][0-9]*$/) },
      { address: from, assetId: asset.id, delta: "-400" },
      { address: destination, assetId: asset.id, delta: "400" },
    ]);
    expect(-BigInt(body.balanceChanges[0].delta) % BigInt(body.gasUsed)).toBe(0n);
  });

  it("reports a revert with its reason: an ERC-20 transfer above the source's token balance", async () => {
    const s = await source(Q);
    const token = await deployFixedSupplyToken(devnet(), s.wallet.address, 10n);
    const asset = (await s.api.post("/v1/assets", { networkCode: "QUANTUM_SANDBOX", contractAddress: token })).json();
    const res = await simulate(server, s, nativeTransfer(s, 11n, { assetId: asset.id }));
    expect(res.status, res.text).toBe(200);
    const body = res.json();
    expect(body.status).toBe("REVERT");
    expect(body.revertReason).toBe(`ERC20InsufficientBalance(${s.wallet.address.toLowerCase()}, 10, 11)`);
    // A reverted call moves no token; the source still pays the fee of the gas it used.
    expect(body.balanceChanges).toEqual([
      { address: s.wallet.address.toLowerCase(), assetId: native, delta: expect.stringMatching(/^-[1-9][0-9]*$/) },
    ]);
  });

  it("refuses a bad body as create does, with no idempotency key asked", async () => {
    const s = await source(0n);
    expectError(await simulate(server, s, nativeTransfer(s, "0")), 400, "VALIDATION_FAILED", 1001);
    expectError(await simulate(server, s, { ...nativeTransfer(s, Q), amount: 1 }), 400, "VALIDATION_FAILED", 1001);
    expectError(await simulate(server, s, nativeTransfer(s, Q, { destinationAddress: "0x1234" })), 400, "INVALID_ADDRESS", 1204);
    expectError(await simulate(server, s, nativeTransfer(s, Q, { sourceWalletId: crypto.randomUUID() })), 404, "NOT_FOUND", 1030);
    expectError(await simulate(server, s, nativeTransfer(s, Q, { assetId: crypto.randomUUID() })), 400, "UNKNOWN_ASSET", 1107);
    const { networkCode: _, ...noNetwork } = nativeTransfer(s, Q);
    expectError(await simulate(server, s, noNetwork), 400, "VALIDATION_FAILED", 1001);
  });

  it("a released transfer carries the simulation made on entering PENDING_SIGNATURE (at its own fee caps)", async () => {
    const s = await source(5n * Q);
    const destination = newSignerKey().address;
    const created = await s.api.createTransfer(nativeTransfer(s, 2n * Q, { destinationAddress: destination }));
    expect(created.status, created.text).toBe(201);
    expect(created.json().simulation).toBeNull();
    const released = await waitForStatus(s.api, created.json().id, ["PENDING_SIGNATURE", "FAILED", "BLOCKED"]);
    expect(released.status, released.statusReason).toBe("PENDING_SIGNATURE");
    const simulation = released.simulation;
    expect(simulation).toMatchObject({ status: "SUCCESS", gasUsed: "21000", revertReason: null });
    expect(simulation.balanceChanges[1]).toEqual({ address: destination, assetId: native, delta: (2n * Q).toString() });
    const fee = -BigInt(simulation.balanceChanges[0].delta) - 2n * Q;
    // Paid at the record's caps: at most gasUsed × maxFeePerGas.
    expect(fee).toBeGreaterThan(0n);
    expect(fee).toBeLessThanOrEqual(21_000n * BigInt(released.fee.maxFeePerGas));
  });

  it("a transfer held for approval carries the simulation made on entering AWAITING_APPROVAL", async () => {
    const s = await source(5n * Q);
    const approvers = await Promise.all([1, 2].map(() => createMemberFixture({ db: t.db, pepper: TEST_PEPPER }, s.tenant, "APPROVER")));
    const groupId = await addGroup(s.api, "Treasury", approvers);
    await requireApprovals(s.api, [{ groupId, quorum: 1 }]);
    const created = await s.api.createTransfer(nativeTransfer(s, Q));
    expect(created.status, created.text).toBe(201);
    const held = await waitForStatus(s.api, created.json().id, ["AWAITING_APPROVAL", "PENDING_SIGNATURE", "FAILED", "BLOCKED"]);
    expect(held.status, held.statusReason).toBe("AWAITING_APPROVAL");
    expect(held.simulation).toMatchObject({ status: "SUCCESS", gasUsed: "21000" });
    expect(held.simulation.balanceChanges).toHaveLength(2);
    expect(held.simulation.balanceChanges[0]).toMatchObject({ address: s.wallet.address.toLowerCase(), assetId: native });
    expect(held.simulation.balanceChanges[1]).toEqual({ address: held.destinationAddress, assetId: native, delta: Q.toString() });
  });
});

describe("pre-sign simulation on a node without eth_simulateV1", () => {
  const { t, devnet, server } = useApprovalStack({}, { disabledMethods: ["eth_simulateV1"] });
  const source = (funds: bigint) => fundedSource(server, t.db, devnet(), funds);

  it("answers UNSUPPORTED, and the transfer still proceeds to PENDING_SIGNATURE with an UNSUPPORTED simulation", async () => {
    const s = await source(5n * Q);
    const res = await simulate(server, s, nativeTransfer(s, Q));
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toMatchObject({
      status: "UNSUPPORTED",
      revertReason: null,
      gasUsed: null,
      balanceChanges: [],
      blockNumber: null,
      reason: "the node does not support eth_simulateV1",
    });
    const created = await s.api.createTransfer(nativeTransfer(s, Q));
    expect(created.status, created.text).toBe(201);
    const released = await waitForStatus(s.api, created.json().id, ["PENDING_SIGNATURE", "FAILED", "BLOCKED"]);
    expect(released.status, released.statusReason).toBe("PENDING_SIGNATURE");
    expect(released.simulation).toMatchObject({
      status: "UNSUPPORTED",
      balanceChanges: [],
      reason: "the node does not support eth_simulateV1",
    });
    // The node really lacks it: the same call straight to the devnet is "method not found".
    await expect(
      devnet()
        .publicClient()
        .request({ method: "eth_simulateV1" as never, params: [{ blockStateCalls: [] }, "latest"] as never }),
    ).rejects.toThrow();
  });
});
