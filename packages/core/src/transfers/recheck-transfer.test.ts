import { createServer, type Server } from "node:http";
import { and, asc, eq, schema } from "@qc/db";
import { findTransaction, listStatusHistory } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "../audit/actor";
import { createContractDeployment } from "../contracts/create-contract-deployment";
import type { ServiceConfig } from "../deps/service-config";
import { defaultTransferConfig } from "../deps/service-config";
import type { ServiceDeps } from "../deps/service-deps";
import { replacePolicy } from "../policies/replace-policy";
import { replaceScreeningDenylist } from "../screening/replace-screening-denylist";
import { createTenantFixture, type TenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import {
  createSubmittedTransferFixture,
  createTransferWalletFixture,
  signTransferFixture,
  type TransferWalletFixture,
} from "../testing/transfer-fixtures";
import { broadcastTransaction } from "./broadcast-transaction";
import { cancelTransaction } from "./cancel-transaction";
import { releaseNextQueued } from "./release-next-queued";
import { runTransferChecks } from "./run-transfer-checks";
import { submitSignature } from "./submit-signature";
import { watchTransaction } from "./watch-transaction";

const Q = 10n ** 18n;
const STALE_MS = 301_000;
const admin = systemActor("test-admin");

/** An HTTP screening provider on loopback: CLEAR unless a destination's answer is set. */
function startProvider() {
  const requests: { transactionId: string; destinationAddress: string }[] = [];
  const answers = new Map<string, { status: number; body: unknown }>();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { transactionId: string; destinationAddress: string };
    requests.push(body);
    const answer = answers.get(body.destinationAddress) ?? { status: 200, body: { decision: "CLEAR", riskScore: 1, reasons: [] } };
    res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
  });
  return {
    requests,
    answer: (destination: string, status: number, body: unknown) => answers.set(destination, { status, body }),
    asked: (transactionId: string) => requests.filter((r) => r.transactionId === transactionId).length,
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return `http://127.0.0.1:${(server.address() as { port: number }).port}/screen`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let destinations = 0;
/** A fresh destination per transfer, so one test's denylist or provider answer touches no other. */
const newDestination = () => `0x${(0xd0000 + ++destinations).toString(16).padStart(40, "0")}`;

/**
 * A transfer's policy and screening decision is taken again before value moves: before release
 * from QUEUED and before broadcast, once older than RECHECK_AFTER_SECONDS (300 s here). Real
 * PostgreSQL, pg-boss, devnet and an HTTP provider on loopback; the test's clock moves the age.
 */
describe("policy and screening taken again before release and broadcast", () => {
  const t = useTestDatabase();
  const devnet = useDevnet();
  const provider = startProvider();
  let clock = Date.now();
  let config: Partial<ServiceConfig>;
  let deps: ServiceDeps & { close(): Promise<void> };
  const extra: Array<{ close(): Promise<void> }> = [];
  let tenant: TenantFixture;

  beforeAll(async () => {
    config = {
      rpcUrls: { QUANTUM_SANDBOX: [devnet().url] },
      screening: { denylist: [], providerUrl: await provider.listen(), maxAttempts: 3 },
      // A window of one: a source's second transfer waits QUEUED, so release-next releases (and re-checks) it.
      transfers: { ...defaultTransferConfig(), recheckAfterSeconds: 300, nonceWindow: 1 },
    };
    deps = await createTestServiceDeps({ database: t, config, now: () => new Date(clock) });
    tenant = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 5) });
  });
  afterAll(async () => {
    await deps?.close();
    for (const other of extra) await other.close();
    await provider.close();
  });

  /** Deps as another process would build them: same database and clock, other configuration. */
  const depsWith = async (overrides: Partial<ServiceConfig>) => {
    const other = await createTestServiceDeps({ database: t, config: { ...config, ...overrides }, now: () => new Date(clock) });
    extra.push(other);
    return other;
  };
  const fundedWallet = async () => {
    const wallet = await createTransferWalletFixture(deps, { tenantId: tenant.tenantId });
    await devnet().fund(wallet.address, 10n * Q);
    return wallet;
  };
  /** Created and checked now, as the `transfers.check` job does: PENDING_SIGNATURE or QUEUED. */
  const checked = async (wallet: TransferWalletFixture, destinationAddress: string, amount = Q) => {
    const row = await createSubmittedTransferFixture(deps, { tenantId: tenant.tenantId, wallet, destinationAddress, amount });
    const outcome = await runTransferChecks(deps, { tenantId: tenant.tenantId, transactionId: row.id });
    expect(outcome.status).toBe("RELEASE");
    return reread(row.id);
  };
  const reread = async (id: string) => (await findTransaction(t.db, tenant.tenantId, id))!;
  const sign = async (id: string, wallet: TransferWalletFixture) => {
    const row = await reread(id);
    await submitSignature(deps, {
      tenantId: tenant.tenantId,
      transactionId: id,
      signature: signTransferFixture(row.signingHash!, wallet.secretKey),
      actor: systemActor("test-signer"),
    });
  };
  const broadcast = (id: string, using: ServiceDeps = deps) =>
    broadcastTransaction(using, { tenantId: tenant.tenantId, transactionId: id });
  const source = (wallet: TransferWalletFixture) => ({
    tenantId: tenant.tenantId,
    sourceWalletId: wallet.walletId,
    networkCode: "QUANTUM_SANDBOX" as const,
  });
  const releaseNext = (wallet: TransferWalletFixture) => releaseNextQueued(deps, source(wallet));
  const releaseNextJobs = async (wallet: TransferWalletFixture) =>
    (await deps.jobs.boss.findJobs("transfers.release-next", { data: source(wallet), queued: true })).length;
  const pendingNonce = (address: `0x${string}`) => devnet().publicClient().getTransactionCount({ address, blockTag: "pending" });
  const events = (id: string) =>
    t.db.select().from(schema.eventOutbox).where(eq(schema.eventOutbox.aggregateId, id)).orderBy(asc(schema.eventOutbox.sequence));
  const audits = (id: string, action: string) =>
    t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.targetId, id), eq(schema.auditEvents.action, action)));

  /** The trail of a move the re-check made: history row by the job's actor, audit row, event. */
  const expectEndedTrail = async (id: string, from: string, actor: string, subStatus: string) => {
    const history = await listStatusHistory(t.db, tenant.tenantId, id);
    expect(history.at(-1)).toMatchObject({ fromStatus: from, toStatus: "BLOCKED", subStatus, actorType: "system", actorId: actor });
    expect(await audits(id, "transaction.blocked")).toHaveLength(1);
    const last = (await events(id)).at(-1)!;
    expect(last.type).toBe("transaction.status_changed");
    expect(last.data).toMatchObject({ previousStatus: from, transaction: { id, status: "BLOCKED", subStatus } });
  };

  it(
    "(a, e) blocks a SIGNED transfer whose destination the tenant denylisted meanwhile: never sent, and the next " + "one takes its nonce",
    async () => {
      const wallet = await fundedWallet();
      const denied = newDestination();
      const first = await checked(wallet, denied);
      const second = await checked(wallet, newDestination());
      expect([first.status, second.status]).toEqual(["PENDING_SIGNATURE", "QUEUED"]);
      // The decision's time is stored with it.
      expect(first.checkedAt).toEqual(new Date(clock));
      await sign(first.id, wallet);

      await replaceScreeningDenylist(deps, {
        tenantId: tenant.tenantId,
        entries: [{ address: denied, label: "flagged after the check" }],
        actor: admin,
      });
      clock += STALE_MS;
      expect(await broadcast(first.id)).toEqual({ status: "BLOCKED" });

      const blocked = await reread(first.id);
      expect(blocked).toMatchObject({
        status: "BLOCKED",
        subStatus: "REJECTED_AML_SCREENING",
        statusReason: `destination ${denied} is on the tenant's denylist (flagged after the check)`,
        screening: { provider: "denylist", decision: "BLOCKED" },
        checkedAt: new Date(clock),
        rawTransaction: null,
        chainTxHash: null,
        sendAttempts: 0,
      });
      await expectEndedTrail(first.id, "SIGNED", "transfers.broadcast", "REJECTED_AML_SCREENING");
      expect(await pendingNonce(wallet.address)).toBe(first.nonce);
      expect(await releaseNextJobs(wallet)).toBeGreaterThanOrEqual(1);

      // Its nonce slot is free and no nonce was used: the next transfer is released with the same one.
      const released = await releaseNext(wallet);
      expect(released).toMatchObject({ outcomes: [{ status: "PENDING_SIGNATURE", transaction: { id: second.id, nonce: first.nonce } }] });
      await sign(second.id, wallet);
      expect(await broadcast(second.id)).toEqual({ status: "BROADCASTING", send: "sent" });
      await devnet().mine(1);
      expect(await devnet().publicClient().getTransactionCount({ address: wallet.address, blockTag: "latest" })).toBe(first.nonce! + 1);
    },
  );

  it("(a) blocks a QUEUED transfer at release when the provider now flags its destination; the next queued one is released", async () => {
    const wallet = await fundedWallet();
    const flagged = newDestination();
    const first = await checked(wallet, newDestination());
    const second = await checked(wallet, flagged);
    const third = await checked(wallet, newDestination());
    expect([first.status, second.status, third.status]).toEqual(["PENDING_SIGNATURE", "QUEUED", "QUEUED"]);

    provider.answer(flagged, 200, { decision: "BLOCKED", riskScore: 95, reasons: ["sanctioned since"] });
    clock += STALE_MS;
    await cancelTransaction(deps, { tenantId: tenant.tenantId, transactionId: first.id, actor: admin });
    // One run: the second ends BLOCKED, the third is released on the nonce nobody used.
    expect(await releaseNext(wallet)).toMatchObject({
      outcomes: [
        { status: "BLOCKED", transaction: { id: second.id } },
        { status: "PENDING_SIGNATURE", transaction: { id: third.id, nonce: first.nonce } },
      ],
      fills: [],
    });
    expect(await reread(second.id)).toMatchObject({
      status: "BLOCKED",
      subStatus: "REJECTED_AML_SCREENING",
      statusReason: "sanctioned since",
      screening: { provider: "http", decision: "BLOCKED", riskScore: 95 },
      nonce: null,
      signingHash: null,
    });
    await expectEndedTrail(second.id, "QUEUED", "transfers.release-next", "REJECTED_AML_SCREENING");
    expect(provider.asked(second.id)).toBe(2);
  });

  it("(a) blocks at broadcast a destination added to SCREENING_DENYLIST by a restart", async () => {
    const wallet = await fundedWallet();
    const denied = newDestination();
    const row = await checked(wallet, denied);
    await sign(row.id, wallet);
    clock += STALE_MS;
    const restarted = await depsWith({
      screening: { denylist: [denied.toUpperCase().replace("0X", "0x")], providerUrl: config.screening!.providerUrl!, maxAttempts: 3 },
    });
    expect(await broadcast(row.id, restarted)).toEqual({ status: "BLOCKED" });
    expect(await reread(row.id)).toMatchObject({
      subStatus: "REJECTED_AML_SCREENING",
      statusReason: `destination ${denied} is on the service's denylist`,
      rawTransaction: null,
    });
    expect(await pendingNonce(wallet.address)).toBe(row.nonce);
  });

  it("(a) blocks a deployment at broadcast whose constructor's beneficiary was denylisted meanwhile", async () => {
    const wallet = await fundedWallet();
    const beneficiary = newDestination();
    const created = await createContractDeployment(deps, {
      tenantId: tenant.tenantId,
      templateId: "timelock-vault",
      networkCode: "QUANTUM_SANDBOX",
      sourceWalletId: wallet.walletId,
      constructorArgs: { vaultBeneficiary: beneficiary, vaultReleaseTime: "1900000000" },
      actor: admin,
    });
    expect(await runTransferChecks(deps, { tenantId: tenant.tenantId, transactionId: created.id })).toMatchObject({
      release: { status: "PENDING_SIGNATURE" },
    });
    await sign(created.id, wallet);
    await replaceScreeningDenylist(deps, { tenantId: tenant.tenantId, entries: [{ address: beneficiary, label: "" }], actor: admin });
    clock += STALE_MS;
    expect(await broadcast(created.id)).toEqual({ status: "BLOCKED" });
    expect(await reread(created.id)).toMatchObject({
      subStatus: "REJECTED_AML_SCREENING",
      statusReason: `constructor argument vaultBeneficiary: destination ${beneficiary} is on the tenant's denylist`,
      rawTransaction: null,
    });
    await expectEndedTrail(created.id, "SIGNED", "transfers.broadcast", "REJECTED_AML_SCREENING");
    await replaceScreeningDenylist(deps, { tenantId: tenant.tenantId, entries: [], actor: admin });
  });

  it("(b) applies a policy tightened after the checks: blocked at release; a velocity window counts the transfer once", async () => {
    const wallet = await fundedWallet();
    const ruledOut = newDestination();
    const first = await checked(wallet, newDestination());
    const second = await checked(wallet, ruledOut);
    expect([first.status, second.status]).toEqual(["PENDING_SIGNATURE", "QUEUED"]);
    await sign(first.id, wallet);

    await replacePolicy(deps, {
      tenantId: tenant.tenantId,
      actor: admin,
      document: {
        defaultAction: "ALLOW",
        rules: [
          // 1 Q + 1 Q is not above 2 Q: counting either transfer twice would block it.
          {
            id: "wallet-2q",
            name: "2 Q per hour",
            action: "BLOCK",
            match: { sourceWalletIds: [wallet.walletId] },
            velocity: { amount: (2n * Q).toString(), windowSeconds: 3600, scope: "WALLET" },
          },
          { id: "no-such-destination", name: "No such destination", action: "BLOCK", match: { destinationAddresses: [ruledOut] } },
        ],
      },
    });
    clock += STALE_MS;
    expect(await broadcast(first.id)).toEqual({ status: "BROADCASTING", send: "sent" });
    expect(await reread(first.id)).toMatchObject({ policy: { decision: "ALLOW", ruleId: null }, checkedAt: new Date(clock) });
    // Mined, it leaves the window's one slot to the second.
    await devnet().mine(1);
    expect(await watchTransaction(deps, { tenantId: tenant.tenantId, transactionId: first.id })).toMatchObject({ status: "CONFIRMING" });

    expect(await releaseNext(wallet)).toMatchObject({ outcomes: [{ status: "BLOCKED", transaction: { id: second.id } }] });
    expect(await reread(second.id)).toMatchObject({
      status: "BLOCKED",
      subStatus: "BLOCKED_BY_POLICY",
      statusReason: 'blocked by policy rule "No such destination" (no-such-destination)',
      policy: { decision: "BLOCK", ruleId: "no-such-destination" },
      nonce: null,
    });
    await expectEndedTrail(second.id, "QUEUED", "transfers.release-next", "BLOCKED_BY_POLICY");
    await replacePolicy(deps, { tenantId: tenant.tenantId, actor: admin, document: { defaultAction: "ALLOW", rules: [] } });
  });

  it("(c) does not ask again while the decision is younger than RECHECK_AFTER_SECONDS; with 0 it always does", async () => {
    const wallet = await fundedWallet();
    const destination = newDestination();
    const fresh = await checked(wallet, destination);
    await sign(fresh.id, wallet);
    provider.answer(destination, 200, { decision: "BLOCKED", riskScore: 99, reasons: ["flagged a moment ago"] });
    clock += 299_000;
    // By design: a decision 299 s old stands (the bound on how stale a broadcast decision can be).
    expect(await broadcast(fresh.id)).toEqual({ status: "BROADCASTING", send: "sent" });
    expect(provider.asked(fresh.id)).toBe(1);
    expect(await reread(fresh.id)).toMatchObject({ checkedAt: fresh.checkedAt, screening: { decision: "CLEAR" } });
    await devnet().mine(1);

    const always = await depsWith({ transfers: { ...defaultTransferConfig(), recheckAfterSeconds: 0 } });
    const other = await fundedWallet();
    const every = await checked(other, newDestination());
    await sign(every.id, other);
    provider.answer(every.destinationAddress!, 200, { decision: "BLOCKED", riskScore: 99, reasons: ["flagged a moment ago"] });
    expect(await broadcast(every.id, always)).toEqual({ status: "BLOCKED" });
    expect(provider.asked(every.id)).toBe(2);
  });

  it(
    "(d, e) blocks with 'provider unavailable' when the provider is down at the re-check, after its retries; the " +
      "next transfer goes on",
    async () => {
      const wallet = await fundedWallet();
      const down = newDestination();
      const downToo = newDestination();
      const first = await checked(wallet, down);
      const second = await checked(wallet, downToo);
      const third = await checked(wallet, newDestination());
      expect([first.status, second.status, third.status]).toEqual(["PENDING_SIGNATURE", "QUEUED", "QUEUED"]);
      await sign(first.id, wallet);
      provider.answer(down, 503, "down for maintenance");
      provider.answer(downToo, 503, "down for maintenance");
      clock += STALE_MS;

      // Before broadcast: two retried failures (503 UNAVAILABLE, the job retries), then fail closed.
      await expect(broadcast(first.id)).rejects.toMatchObject({ error: "UNAVAILABLE" });
      await expect(broadcast(first.id)).rejects.toMatchObject({ error: "UNAVAILABLE" });
      expect(await reread(first.id)).toMatchObject({ status: "SIGNED", screeningAttempts: 2 });
      expect(await broadcast(first.id)).toEqual({ status: "BLOCKED" });
      expect(await reread(first.id)).toMatchObject({
        status: "BLOCKED",
        subStatus: "REJECTED_AML_SCREENING",
        statusReason: "provider unavailable",
        screening: { provider: "http", decision: "BLOCKED", riskScore: null, reasons: ["provider unavailable"] },
        screeningAttempts: 3,
        rawTransaction: null,
      });
      await expectEndedTrail(first.id, "SIGNED", "transfers.broadcast", "REJECTED_AML_SCREENING");
      expect(await pendingNonce(wallet.address)).toBe(first.nonce);

      // At release the same way: release-next retries, then the queued transfer ends BLOCKED.
      await expect(releaseNext(wallet)).rejects.toMatchObject({ error: "UNAVAILABLE" });
      await expect(releaseNext(wallet)).rejects.toMatchObject({ error: "UNAVAILABLE" });
      // The third, in the same run, is released on the nonce nobody used; its decision taken at release is fresh at broadcast.
      expect(await releaseNext(wallet)).toMatchObject({
        outcomes: [
          { status: "BLOCKED", transaction: { id: second.id, statusReason: "provider unavailable", nonce: null } },
          { status: "PENDING_SIGNATURE", transaction: { id: third.id, nonce: first.nonce, screeningAttempts: 0 } },
        ],
      });
      await sign(third.id, wallet);
      expect(await broadcast(third.id)).toEqual({ status: "BROADCASTING", send: "sent" });
      expect(provider.asked(third.id)).toBe(2);
      await devnet().mine(1);
      expect(await devnet().publicClient().getTransactionCount({ address: wallet.address, blockTag: "latest" })).toBe(first.nonce! + 1);
    },
  );
});
