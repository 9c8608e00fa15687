import { serializeQuantumTransaction, signingHash, signQuantumSigningHash } from "@qc/chain";
import { buildQuantumDeployment, findContractTemplate } from "@qc/chain/contracts";
import { defaultTransferConfig, defaultWebhookConfig, type ServiceConfig } from "@qc/core";
import type { Daemon } from "@qc/daemon";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call, startTestServer, type TestServer } from "./harness";
import { expectError, newSignerKey, Q } from "./custody-helpers";
import { eventually, startTestDaemon } from "./identity-helpers";
import { signPending, statusChanges, waitForRecord, type TransactionJson } from "./transfers-back-helpers";
import { fundedSource, idempotencyKey, nativeTransfer, type FundedSource } from "./transfers-front-helpers";
import { startReceiver, type TestReceiver } from "./webhooks-receiver";

const GWEI = 1_000_000_000n;
/** The fee spike: far above what a transfer released before it offers (about 2 gwei). */
const SPIKE = 50n * GWEI;
const STUCK_AFTER_SECONDS = 2;

/**
 * CONTRACT §17's speed-up and cancel on chain, end to end: real HTTPS, the daemon's jobs, the
 * devnet producing 300 ms blocks, a base-fee spike that leaves a sent transfer in the pool.
 */
describe("speed-up and cancel on chain under a base-fee spike (real HTTPS, daemon, devnet)", () => {
  const t = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 300 });
  let config: Partial<ServiceConfig>;
  let server: TestServer;
  let daemon: Daemon;
  let receiver: TestReceiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    config = {
      webhooks: { ...defaultWebhookConfig(), allowPrivateUrls: true, trustedCertificates: receiver.certificate, sweepIntervalMs: 200 },
      rpcUrls: { QUANTUM_SANDBOX: [devnet().url] },
      transfers: {
        ...defaultTransferConfig(),
        stuckAfterSeconds: STUCK_AFTER_SECONDS,
        // Three blocks (about 0.9 s): the race below signs the speed-up while its original is CONFIRMING.
        requiredConfirmations: { QUANTUM_SANDBOX: 3, QUANTUM_MAINNET: 12 },
      },
    };
    server = await startTestServer({ database: t, config });
    daemon = await startTestDaemon(t.url, { config });
  });
  afterEach(async () => {
    await devnet().rpc("devnet_clearFaults");
    // Until a block is produced after the spike, the latest block still shows it, and a transfer the
    // next test releases would be priced above the spike (then mined under it, never stuck).
    await eventually(async () => (await devnet().publicClient().getBlock()).baseFeePerGas! < SPIKE);
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
    await receiver?.close();
  });

  const balance = (address: string) =>
    devnet()
      .publicClient()
      .getBalance({ address: address as `0x${string}` });
  const receiptOf = (hash: string) =>
    devnet()
      .publicClient()
      .getTransactionReceipt({ hash: hash as `0x${string}` });
  /**
   * Sets the spike and waits for the first block produced under it: the service prices a speed-up
   * from the latest block (docs/speed-up-and-cancel.md), so one asked before that block exists is
   * priced at the old base fee and waits in the pool like its original (a deployment is released,
   * signed, sent and sped up within one 300 ms block).
   */
  const spike = async () => {
    await devnet().rpc("devnet_setFault", [{ kind: "baseFee", baseFeePerGas: `0x${SPIKE.toString(16)}` }]);
    await eventually(async () => (await devnet().publicClient().getBlock()).baseFeePerGas === SPIKE);
  };
  const eventsOf = (transactionId: string, type: string) =>
    t.db
      .select()
      .from(schema.eventOutbox)
      .where(and(eq(schema.eventOutbox.aggregateId, transactionId), eq(schema.eventOutbox.type, type)));

  /** A transfer released before the spike, signed and sent during it: BROADCASTING, waiting in the pool. */
  const sentDuringSpike = async (amount: bigint, destination = newSignerKey().address) => {
    const source = await fundedSource(() => server, t.db, devnet(), 50n * Q);
    // The tenant's endpoint hears only of stuck transactions (the event filter takes the new type).
    const subscribed = await source.api.post("/v1/webhooks", {
      url: receiver.url(`/${source.tenant.tenantId}`),
      events: ["transaction.stuck"],
    });
    expect(subscribed.status, subscribed.text).toBe(201);
    const res = await source.api.createTransfer(nativeTransfer(source, amount, { destinationAddress: destination }));
    expect(res.status, res.text).toBe(201);
    const released = await waitForRecord(source.api, res.json().id, ["PENDING_SIGNATURE"]);
    expect(BigInt(released.fee.maxFeePerGas)).toBeLessThan(SPIKE);
    await spike();
    await signPending(source.api, released.id, source.key.secretKey);
    const sent = await waitForRecord(source.api, released.id, ["BROADCASTING", "CONFIRMING", "COMPLETED", "FAILED"]);
    expect(sent.status).toBe("BROADCASTING");
    return { source, sent, destination };
  };
  const post = (source: FundedSource, path: string, body: unknown = {}, key?: string) =>
    call(server, path, {
      method: "POST",
      headers: {
        authorization: source.tenant.authorization,
        "content-type": "application/json",
        ...(key ? { "x-idempotency-key": key } : {}),
      },
      body: JSON.stringify(body),
    });

  it("waits BROADCASTING, becomes stuck with one event; its speed-up is signed and mined, the original ends FAILED/REPLACED", async () => {
    const { source, sent, destination } = await sentDuringSpike(3n * Q);
    // Blocks keep coming at the spiked base fee; the transfer waits in the pool and is flagged once.
    const stuck = await eventually(async () => {
      const record = (await source.api.get(`/v1/transactions/${sent.id}`)).json() as TransactionJson;
      return record.stuck ? record : undefined;
    }, 30_000);
    expect(stuck).toMatchObject({ status: "BROADCASTING", stuck: true });
    const head = await devnet().publicClient().getBlockNumber();
    await eventually(async () => (await devnet().publicClient().getBlockNumber()) >= head + 3n);
    const stuckEvents = await eventsOf(sent.id, "transaction.stuck");
    expect(stuckEvents).toHaveLength(1);
    expect(stuckEvents[0]!.data).toMatchObject({ transaction: { id: sent.id, status: "BROADCASTING", stuck: true } });
    const delivered = await eventually(async () => {
      const got = receiver.received.filter((r) => r.path === `/${source.tenant.tenantId}`);
      return got.length > 0 ? got : undefined;
    });
    expect(delivered.map((r) => [r.json.type, (r.json.data as { transaction: { id: string } }).transaction.id])).toEqual([
      ["transaction.stuck", sent.id],
    ]);
    expect((await devnet().publicClient().getBlock()).baseFeePerGas).toBe(SPIKE);

    const key = idempotencyKey("speed-up");
    const res = await post(source, `/v1/transactions/${sent.id}/speed-up`, {}, key);
    expect(res.status, res.text).toBe(201);
    const replacement = res.json() as TransactionJson;
    expect(replacement).toMatchObject({
      type: "REPLACEMENT",
      status: "PENDING_SIGNATURE",
      replacesTransactionId: sent.id,
      nonce: sent.nonce,
      destinationAddress: destination,
      assetId: sent.assetId,
      amount: sent.amount,
      externalId: null,
      stuck: false,
      policy: sent.policy,
      screening: sent.screening,
    });
    expect(replacement.fee.gasLimit).toBe(sent.fee.gasLimit);
    // 12.5 % above the original's caps, and enough for the spiked base fee.
    expect(BigInt(replacement.fee.maxFeePerGas) * 8n).toBeGreaterThanOrEqual(BigInt(sent.fee.maxFeePerGas) * 9n);
    expect(BigInt(replacement.fee.maxPriorityFeePerGas) * 8n).toBeGreaterThanOrEqual(BigInt(sent.fee.maxPriorityFeePerGas) * 9n);
    expect(BigInt(replacement.fee.maxFeePerGas)).toBeGreaterThan(SPIKE);
    // The same request again is the same answer (CONTRACT §6), not a second replacement.
    const replayed = await post(source, `/v1/transactions/${sent.id}/speed-up`, {}, key);
    expect(replayed.status).toBe(201);
    expect(replayed.headers["idempotent-replayed"]).toBe("true");
    expect(replayed.json().id).toBe(replacement.id);

    const before = await balance(source.wallet.address);
    await signPending(source.api, replacement.id, source.key.secretKey);
    const done = await waitForRecord(source.api, replacement.id, ["COMPLETED", "FAILED"]);
    expect(done).toMatchObject({ status: "COMPLETED", type: "REPLACEMENT" });
    const original = await waitForRecord(source.api, sent.id, ["FAILED", "COMPLETED", "CANCELLED"]);
    expect(original).toMatchObject({
      status: "FAILED",
      subStatus: "REPLACED",
      replacedByTransactionId: replacement.id,
      stuck: true,
      chainTxHash: sent.chainTxHash,
    });
    expect(original.statusReason).toContain(replacement.id);
    // The value moved once, by the replacement; the original's hash was never mined.
    const receipt = await receiptOf(done.chainTxHash);
    expect(receipt.effectiveGasPrice).toBeGreaterThanOrEqual(SPIKE);
    expect(await balance(destination)).toBe(3n * Q);
    expect(await balance(source.wallet.address)).toBe(before - 3n * Q - receipt.gasUsed * receipt.effectiveGasPrice);
    await expect(receiptOf(sent.chainTxHash)).rejects.toThrow();
    const changes = await statusChanges(t.db, sent.id);
    expect(changes.at(-1)).toMatchObject({ from: "BROADCASTING", to: "FAILED" });
    const [last] = (await eventsOf(sent.id, "transaction.status_changed")).sort((a, b) => b.sequence - a.sequence);
    expect(last!.data).toMatchObject({ transaction: { subStatus: "REPLACED", replacedByTransactionId: replacement.id } });
    expect(await eventsOf(sent.id, "transaction.stuck")).toHaveLength(1);
  });

  it("cancels on chain: the CANCELLATION is mined, the original ends CANCELLED/CANCELLED_ON_CHAIN, only the fee is spent", async () => {
    const { source, sent, destination } = await sentDuringSpike(5n * Q);
    const res = await post(source, `/v1/transactions/${sent.id}/cancel`, { reason: "wrong amount" });
    expect(res.status, res.text).toBe(201);
    const cancellation = res.json() as TransactionJson;
    expect(cancellation).toMatchObject({
      type: "CANCELLATION",
      status: "PENDING_SIGNATURE",
      replacesTransactionId: sent.id,
      nonce: sent.nonce,
      sourceAddress: source.wallet.address,
      destinationAddress: source.wallet.address,
      amount: "0",
      assetId: null,
      fee: { gasLimit: "21000" },
    });
    expect(BigInt(cancellation.fee.maxFeePerGas)).toBeGreaterThan(SPIKE);

    const before = await balance(source.wallet.address);
    await signPending(source.api, cancellation.id, source.key.secretKey);
    const mined = await waitForRecord(source.api, cancellation.id, ["COMPLETED", "FAILED"]);
    expect(mined.status).toBe("COMPLETED");
    const original = await waitForRecord(source.api, sent.id, ["CANCELLED", "FAILED", "COMPLETED"]);
    expect(original).toMatchObject({ status: "CANCELLED", subStatus: "CANCELLED_ON_CHAIN", replacedByTransactionId: cancellation.id });
    const receipt = await receiptOf(mined.chainTxHash);
    expect(receipt.to).toBe(source.wallet.address);
    expect(await balance(destination)).toBe(0n);
    expect(await balance(source.wallet.address)).toBe(before - receipt.gasUsed * receipt.effectiveGasPrice);
  });

  it("a speed-up racing its original: the original is mined first, completes, and the speed-up ends FAILED/REPLACED", async () => {
    const { source, sent, destination } = await sentDuringSpike(2n * Q);
    const res = await post(source, `/v1/transactions/${sent.id}/speed-up`, { maxPriorityFeePerGas: (3n * GWEI).toString() });
    expect(res.status, res.text).toBe(201);
    const replacement = res.json() as TransactionJson;
    expect(replacement.fee.maxPriorityFeePerGas).toBe((3n * GWEI).toString());
    // The spike ends before the speed-up is signed: the original's fee cap is enough again, it is mined.
    await devnet().rpc("devnet_clearFaults");
    expect((await waitForRecord(source.api, sent.id, ["CONFIRMING", "COMPLETED", "FAILED"])).status).not.toBe("FAILED");
    // The signer signs the speed-up only now: sent, the node answers "nonce too low", which is no drop while the
    // original holds the nonce (or, signed too late, the original's completion has ended it already: 409).
    const signature = signQuantumSigningHash({ signingHash: replacement.signingHash, secretKey: source.key.secretKey });
    const signed = await source.api.post(`/v1/signer/transactions/${replacement.id}/signature`, { signature });
    expect([200, 409], signed.text).toContain(signed.status);
    const original = await waitForRecord(source.api, sent.id, ["COMPLETED", "FAILED"]);
    expect(original).toMatchObject({ status: "COMPLETED", replacedByTransactionId: null });
    const lost = await waitForRecord(source.api, replacement.id, ["FAILED", "COMPLETED"]);
    expect(lost).toMatchObject({ status: "FAILED", subStatus: "REPLACED", replacedByTransactionId: sent.id });
    expect(await balance(destination)).toBe(2n * Q);
    // A speed-up asked after the nonce is mined: refused, nothing created.
    expectError(await post(source, `/v1/transactions/${sent.id}/speed-up`), 409, "INVALID_TRANSACTION_STATE", 1203);
  });

  it("speeds up a contract deployment: the REPLACEMENT deploys the same template and arguments, and completes as the deployment", async () => {
    const template = findContractTemplate("erc20-fixed-supply")!;
    const source = await fundedSource(() => server, t.db, devnet(), 50n * Q);
    const constructorArgs = {
      tokenName: "Spike Dollar",
      tokenSymbol: "SPD",
      tokenDecimals: "6",
      initialSupply: "5000000",
      initialHolder: source.wallet.address,
    };
    const res = await post(
      source,
      "/v1/contracts/deployments",
      { networkCode: "QUANTUM_SANDBOX", sourceWalletId: source.wallet.id, templateId: template.id, constructorArgs },
      idempotencyKey("deploy"),
    );
    expect(res.status, res.text).toBe(201);
    const released = await waitForRecord(source.api, res.json().id, ["PENDING_SIGNATURE"]);
    /** The signer's side for a deployment: the creation rebuilt from the catalog and the listed fields, signed. */
    const signDeployment = async (transactionId: string) => {
      const listed = await eventually(async () => {
        const list = await source.api.get("/v1/signer/transactions?status=PENDING_SIGNATURE&limit=200");
        return (list.json().transactions as TransactionJson[]).find((tx) => tx.id === transactionId);
      });
      expect(listed.deployment).toEqual({ templateId: template.id, constructorArgs });
      const { transaction } = buildQuantumDeployment({
        chainId: listed.chainId,
        nonce: listed.nonce,
        maxFeePerGas: BigInt(listed.fee.maxFeePerGas),
        maxPriorityFeePerGas: BigInt(listed.fee.maxPriorityFeePerGas),
        gas: BigInt(listed.fee.gasLimit),
        template,
        constructorArgs: listed.deployment.constructorArgs,
      });
      expect(listed.signingRequest.unsignedTransaction).toBe(serializeQuantumTransaction(transaction));
      const signature = signQuantumSigningHash({ signingHash: signingHash(transaction), secretKey: source.key.secretKey });
      const signed = await source.api.post(`/v1/signer/transactions/${transactionId}/signature`, { signature });
      expect(signed.status, signed.text).toBe(200);
    };
    expect(BigInt(released.fee.maxFeePerGas)).toBeLessThan(SPIKE);
    await spike();
    await signDeployment(released.id);
    const sent = await waitForRecord(source.api, released.id, ["BROADCASTING", "COMPLETED", "FAILED"]);
    expect(sent.status).toBe("BROADCASTING");

    const sped = await post(source, `/v1/transactions/${sent.id}/speed-up`);
    expect(sped.status, sped.text).toBe(201);
    const replacement = sped.json() as TransactionJson;
    expect(replacement).toMatchObject({
      type: "REPLACEMENT",
      replacesTransactionId: sent.id,
      nonce: sent.nonce,
      destinationAddress: null,
      deployment: { templateId: template.id, constructorArgs },
      fee: { gasLimit: sent.fee.gasLimit },
    });
    // Minable under the spike, and 12.5 % above the original's caps.
    expect(BigInt(replacement.fee.maxFeePerGas)).toBeGreaterThan(SPIKE);
    expect(BigInt(replacement.fee.maxPriorityFeePerGas) * 8n).toBeGreaterThanOrEqual(BigInt(sent.fee.maxPriorityFeePerGas) * 9n);
    await signDeployment(replacement.id);
    const done = await waitForRecord(source.api, replacement.id, ["COMPLETED", "FAILED"]);
    expect(done).toMatchObject({ status: "COMPLETED", contractAddress: expect.stringMatching(/^0x[0-9a-f]{40}$/) });
    expect(await waitForRecord(source.api, sent.id, ["FAILED", "COMPLETED"])).toMatchObject({
      status: "FAILED",
      subStatus: "REPLACED",
      replacedByTransactionId: replacement.id,
      contractAddress: null,
    });
    // The deployed token is the tenant's asset, as after any token deployment.
    const assets = (await source.api.get("/v1/assets?networkCode=QUANTUM_SANDBOX")).json().assets as { contractAddress: string | null }[];
    expect(assets.map((asset) => asset.contractAddress)).toContain(done.contractAddress);
  });

  it("refuses bad input and states with contract errors", async () => {
    const source = await fundedSource(() => server, t.db, devnet(), 10n * Q);
    const res = await source.api.createTransfer(nativeTransfer(source, Q));
    const released = await waitForRecord(source.api, res.json().id, ["PENDING_SIGNATURE"]);
    const pending = await post(source, `/v1/transactions/${released.id}/speed-up`);
    expectError(pending, 409, "INVALID_TRANSACTION_STATE", 1203);
    expect(pending.json().details).toMatchObject({ status: "PENDING_SIGNATURE" });
    expectError(await post(source, `/v1/transactions/${released.id}/speed-up`, { maxFeePerGas: "1.5" }), 400, "VALIDATION_FAILED", 1001);
    expectError(
      await post(source, `/v1/transactions/${released.id}/speed-up`, { maxFeePerGas: 3000000000 }),
      400,
      "VALIDATION_FAILED",
      1001,
    );
    const aboveCap = await post(source, `/v1/transactions/${released.id}/speed-up`, { maxFeePerGas: (10n ** 13n).toString() });
    expectError(aboveCap, 400, "VALIDATION_FAILED", 1001);
    expect(aboveCap.json().details.fields[0].path).toBe("maxFeePerGas");
    expectError(await post(source, "/v1/transactions/0194f2c5-1a2b-7c3d-8e4f-5a6b7c8d9e0f/speed-up"), 404, "NOT_FOUND", 1030);
    // Another tenant's transaction does not exist for this one.
    const other = await fundedSource(() => server, t.db, undefined, 0n);
    expectError(await post(other, `/v1/transactions/${released.id}/speed-up`), 404, "NOT_FOUND", 1030);
    expectError(await post(other, `/v1/transactions/${released.id}/cancel`), 404, "NOT_FOUND", 1030);
    // Before signing, cancel is still today's: 200, CANCELLED/CANCELLED_BY_USER, no record created.
    const cancelled = await post(source, `/v1/transactions/${released.id}/cancel`);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.json()).toMatchObject({ id: released.id, status: "CANCELLED", subStatus: "CANCELLED_BY_USER" });
    expectError(await post(source, `/v1/transactions/${released.id}/cancel`), 409, "INVALID_TRANSACTION_STATE", 1203);
    expectError(await post(source, `/v1/transactions/${released.id}/speed-up`), 409, "INVALID_TRANSACTION_STATE", 1203);
  });
});
