import { createServer, type IncomingMessage, type Server } from "node:http";
import { erc20TransferCalldata } from "@qc/chain";
import { defaultTransferConfig, rebuildUnsignedTransaction, type ServiceConfig } from "@qc/core";
import type { Daemon } from "@qc/daemon";
import { asc, eq, schema } from "@qc/db";
import { findTransaction } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deployTestToken, NATIVE, newSignerKey, Q } from "./custody-helpers";
import { startTestServer, type TestServer } from "./harness";
import {
  devnetConfig,
  fundedSource,
  nativeTransfer,
  startTransfersDaemon,
  waitForStatus,
  type FundedSource,
} from "./transfers-front-helpers";

const ENDED = ["PENDING_SIGNATURE", "QUEUED", "BLOCKED", "FAILED"];

/** The checks job end to end: real HTTPS, the daemon's pg-boss workers, the devnet for balances and fees. */
describe("transfer checks: policy, velocity, denylist, quotas, balance", () => {
  const t = useTestDatabase();
  // Blocks every 100 ms: the ERC-20 deployment and funding are mined without being asked.
  const devnet = useDevnet({ blockTimeMs: 100 });
  const serviceDenied = newSignerKey().address;
  let server: TestServer;
  let daemon: Daemon;

  beforeAll(async () => {
    const config = devnetConfig(devnet(), {
      // Any case, with or without 0x, as an operator may write it.
      screening: { denylist: [serviceDenied.slice(2).toUpperCase()], maxAttempts: 3 },
    });
    const daemonConfig: Partial<ServiceConfig> = {
      ...config,
      // A window of one (NONCE_WINDOW=1): a source's later transfers wait QUEUED, as these tests need.
      transfers: { ...defaultTransferConfig(), nonceWindow: 1, dailyQuota: { count: 4, amounts: { [NATIVE.QUANTUM_SANDBOX]: 10n * Q } } },
    };
    server = await startTestServer({ database: t, config });
    daemon = await startTransfersDaemon(t.url, daemonConfig);
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
  });

  const source = (funds: bigint) => fundedSource(() => server, t.db, devnet(), funds);
  const create = async (from: FundedSource, body: Record<string, unknown>) => {
    const res = await from.api.createTransfer(body);
    expect(res.status, res.text).toBe(201);
    return waitForStatus(from.api, res.json().id, ENDED);
  };

  it("blocks a transfer a policy rule blocks (BLOCKED_BY_POLICY), naming the rule; others go on", async () => {
    const s = await source(10n * Q);
    const denied = newSignerKey().address;
    expect(
      (
        await s.api.put("/v1/policies", {
          defaultAction: "ALLOW",
          rules: [{ id: "no-mixer", name: "No mixer", action: "BLOCK", match: { destinationAddresses: [denied] } }],
        })
      ).status,
    ).toBe(200);
    const blocked = await create(s, nativeTransfer(s, Q, { destinationAddress: denied }));
    expect(blocked).toMatchObject({
      status: "BLOCKED",
      subStatus: "BLOCKED_BY_POLICY",
      statusReason: 'blocked by policy rule "No mixer" (no-mixer)',
      policy: { decision: "BLOCK", ruleId: "no-mixer" },
      screening: null,
      nonce: null,
      signingHash: null,
    });
    const events = await t.db
      .select()
      .from(schema.eventOutbox)
      .where(eq(schema.eventOutbox.aggregateId, blocked.id))
      .orderBy(asc(schema.eventOutbox.sequence));
    expect(events.map((e) => [e.type, e.sequence])).toEqual([
      ["transaction.created", 1],
      ["transaction.status_changed", 2],
    ]);
    expect(events[1]!.data).toMatchObject({
      previousStatus: "SUBMITTED",
      transaction: { status: "BLOCKED", subStatus: "BLOCKED_BY_POLICY" },
    });
    const timeline = (await s.api.get(`/v1/transactions/${blocked.id}/events`)).json().events;
    expect(timeline[1]).toMatchObject({
      from: "SUBMITTED",
      to: "BLOCKED",
      subStatus: "BLOCKED_BY_POLICY",
      reason: blocked.statusReason,
      actor: { type: "system", id: "transfers.check" },
    });

    const allowed = await create(s, nativeTransfer(s, Q));
    expect(allowed).toMatchObject({ status: "PENDING_SIGNATURE", policy: { decision: "ALLOW", ruleId: null } });
  });

  it("blocks on a velocity window summed across several transfers; blocked and cancelled ones stop counting", async () => {
    const s = await source(20n * Q);
    const rule = {
      id: "wallet-3q",
      name: "3 Q per hour",
      action: "BLOCK",
      match: {},
      velocity: { amount: (3n * Q).toString(), windowSeconds: 3600, scope: "WALLET" },
    };
    expect((await s.api.put("/v1/policies", { defaultAction: "ALLOW", rules: [rule] })).status).toBe(200);
    const first = await create(s, nativeTransfer(s, Q));
    const second = await create(s, nativeTransfer(s, Q));
    const third = await create(s, nativeTransfer(s, Q));
    expect([first.status, second.status, third.status]).toEqual(["PENDING_SIGNATURE", "QUEUED", "QUEUED"]);
    const fourth = await create(s, nativeTransfer(s, Q));
    expect(fourth).toMatchObject({ status: "BLOCKED", subStatus: "BLOCKED_BY_POLICY", policy: { decision: "BLOCK", ruleId: "wallet-3q" } });
    expect(fourth.statusReason).toBe(
      `blocked by policy rule "3 Q per hour" (wallet-3q): ${4n * Q} moved by the wallet in the last 3600 s (this transfer included) is above the limit of ${3n * Q}`,
    );
    // The blocked one does not count, the cancelled one no longer does: 1 + 1 + 1 again.
    expect((await s.api.post(`/v1/transactions/${first.id}/cancel`)).status).toBe(200);
    const fifth = await create(s, nativeTransfer(s, Q));
    expect(fifth.status).toBe("QUEUED");
  });

  it("blocks destinations on the tenant's or the service's denylist (REJECTED_AML_SCREENING)", async () => {
    const s = await source(10n * Q);
    const tenantDenied = newSignerKey().address;
    expect((await s.api.put("/v1/settings/screening-denylist", { entries: [{ address: tenantDenied, label: "known scam" }] })).status).toBe(
      200,
    );
    const byTenant = await create(s, nativeTransfer(s, Q, { destinationAddress: tenantDenied }));
    expect(byTenant).toMatchObject({
      status: "BLOCKED",
      subStatus: "REJECTED_AML_SCREENING",
      statusReason: `destination ${tenantDenied} is on the tenant's denylist (known scam)`,
      policy: { decision: "ALLOW", ruleId: null },
      screening: {
        provider: "denylist",
        decision: "BLOCKED",
        riskScore: null,
        reasons: [`destination ${tenantDenied} is on the tenant's denylist (known scam)`],
      },
    });
    const byService = await create(s, nativeTransfer(s, Q, { destinationAddress: serviceDenied }));
    expect(byService).toMatchObject({
      status: "BLOCKED",
      subStatus: "REJECTED_AML_SCREENING",
      statusReason: `destination ${serviceDenied} is on the service's denylist`,
    });
    // Another tenant's list does not apply here.
    const other = await source(10n * Q);
    expect((await create(other, nativeTransfer(other, Q, { destinationAddress: tenantDenied }))).status).toBe("PENDING_SIGNATURE");
  });

  it("blocks what exceeds the tenant's daily quotas (QUOTA_EXCEEDED): count, and amount per asset", async () => {
    const s = await source(30n * Q);
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push(await create(s, nativeTransfer(s, 1n)));
    expect(outcomes.map((o) => o.status)).toEqual(["PENDING_SIGNATURE", "QUEUED", "QUEUED", "QUEUED", "BLOCKED"]);
    expect(outcomes[4]).toMatchObject({
      subStatus: "QUOTA_EXCEEDED",
      statusReason: "daily quota exceeded: this would be transfer 5 of the UTC day; the limit is 4",
    });

    const a = await source(30n * Q);
    expect((await create(a, nativeTransfer(a, 6n * Q))).status).toBe("PENDING_SIGNATURE");
    const over = await create(a, nativeTransfer(a, 4n * Q + 1n));
    expect(over).toMatchObject({ status: "BLOCKED", subStatus: "QUOTA_EXCEEDED", screening: { decision: "CLEAR" } });
    expect(over.statusReason).toBe(
      `daily quota exceeded: ${10n * Q + 1n} of asset ${NATIVE.QUANTUM_SANDBOX} in the UTC day (this transfer included); the limit is ${10n * Q}`,
    );
    expect((await create(a, nativeTransfer(a, 4n * Q))).status).toBe("QUEUED");
  });

  it(
    "fails a transfer the source cannot pay with its maximum fee (FAILED/INSUFFICIENT_FUNDS), counting its pending " + "transfers",
    async () => {
      const exact = await source(Q);
      const failed = await create(exact, nativeTransfer(exact, Q));
      expect(failed).toMatchObject({
        status: "FAILED",
        subStatus: "INSUFFICIENT_FUNDS",
        policy: { decision: "ALLOW" },
        screening: { decision: "CLEAR" },
      });
      expect(failed.statusReason).toMatch(
        /^insufficient funds: the source holds 1000000000000000000 Qwei; it needs \d+ for the amount, the maximum fee \(\d+\)$/,
      );

      const s = await source(4n * Q);
      expect((await create(s, nativeTransfer(s, 3n * Q))).status).toBe("PENDING_SIGNATURE");
      // 2 Q alone would pass; beside the 3 Q (and its fee) already released, it cannot.
      const second = await create(s, nativeTransfer(s, 2n * Q));
      expect(second).toMatchObject({ status: "FAILED", subStatus: "INSUFFICIENT_FUNDS" });
      expect(second.statusReason).toContain(`beside ${3n * Q} taken by its pending transfers`);
      expect((await create(s, nativeTransfer(s, Q / 2n))).status).toBe("QUEUED");
    },
  );

  it("checks an ERC-20 transfer against the token balance and the fee in native, and releases it with the token's calldata", async () => {
    const { token, transfer } = await deployTestToken(devnet());
    const s = await source(Q);
    const asset = (await s.api.post("/v1/assets", { networkCode: "QUANTUM_SANDBOX", contractAddress: token })).json();
    await transfer(s.wallet.address, 1_000n);
    const destination = newSignerKey().address;
    const tooMuch = await create(s, nativeTransfer(s, 1_001n, { assetId: asset.id, destinationAddress: destination }));
    expect(tooMuch).toMatchObject({ status: "FAILED", subStatus: "INSUFFICIENT_FUNDS" });
    expect(tooMuch.statusReason).toContain("the source holds 1000 QUSD");
    const released = await create(s, nativeTransfer(s, 1_000n, { assetId: asset.id, destinationAddress: destination }));
    expect(released).toMatchObject({ status: "PENDING_SIGNATURE", nonce: 0, amount: "1000" });
    const row = (await findTransaction(t.db, s.tenant.tenantId, released.id))!;
    const rebuilt = rebuildUnsignedTransaction(row, { kind: "TOKEN", contractAddress: token });
    expect(released.signingHash).toBe(rebuilt.signingHash);
    expect(rebuilt.unsigned).toMatchObject({ to: token, value: 0n, data: erc20TransferCalldata({ to: destination, amount: 1_000n }) });
    expect(row.data).toBe(erc20TransferCalldata({ to: destination, amount: 1_000n }));
    // No native left for the fee: a second wallet holding tokens only.
    const dry = await fundedSource(() => server, t.db, devnet(), 0n, { tenant: s.tenant });
    await transfer(dry.wallet.address, 10n);
    const noGas = await create(dry, nativeTransfer(dry, 10n, { assetId: asset.id }));
    expect(noGas).toMatchObject({ status: "FAILED", subStatus: "INSUFFICIENT_FUNDS" });
  });
});

/** An HTTP screening provider on loopback whose answers each test scripts, per destination address. */
function startProvider() {
  const requests: Record<string, unknown>[] = [];
  const scripts = new Map<string, Array<{ status: number; body: string }>>();
  const fallback = new Map<string, { status: number; body: string }>();
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    requests.push(body);
    const destination = String(body.destinationAddress);
    const answer = scripts.get(destination)?.shift() ??
      fallback.get(destination) ?? { status: 200, body: JSON.stringify({ decision: "CLEAR", riskScore: 1, reasons: [] }) };
    res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body);
  });
  return {
    requests,
    /** The next answers for transfers to `destination`, then `then` for every later one. */
    script(destination: string, answers: Array<{ status: number; body: unknown }>, then?: { status: number; body: unknown }) {
      scripts.set(
        destination,
        answers.map((a) => ({ status: a.status, body: typeof a.body === "string" ? a.body : JSON.stringify(a.body) })),
      );
      if (then)
        fallback.set(destination, { status: then.status, body: typeof then.body === "string" ? then.body : JSON.stringify(then.body) });
    },
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return `http://127.0.0.1:${(server.address() as { port: number }).port}/screen`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("transfer checks: an HTTP screening provider, failing closed", () => {
  const t = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 0 });
  const provider = startProvider();
  let server: TestServer;
  let daemon: Daemon;

  beforeAll(async () => {
    const config = devnetConfig(devnet(), { screening: { denylist: [], providerUrl: await provider.listen(), maxAttempts: 3 } });
    server = await startTestServer({ database: t, config });
    daemon = await startTransfersDaemon(t.url, config);
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
    await provider.close();
  });

  const screeningAttempts = async (id: string) =>
    (await t.db.select().from(schema.transactions).where(eq(schema.transactions.id, id)))[0]!.screeningAttempts;

  it("retries while the provider is down or answers garbage, and clears once it answers", async () => {
    const s = await fundedSource(() => server, t.db, devnet(), 10n * Q);
    const down = newSignerKey().address;
    const garbage = newSignerKey().address;
    const blocked = newSignerKey().address;
    provider.script(
      down,
      [
        { status: 503, body: "busy" },
        { status: 503, body: "busy" },
      ],
      { status: 200, body: { decision: "CLEAR", riskScore: 12.5, reasons: ["low risk"] } },
    );
    provider.script(
      garbage,
      [
        { status: 200, body: "<html>ok</html>" },
        { status: 200, body: { decision: "MAYBE" } },
      ],
      { status: 200, body: { decision: "CLEAR" } },
    );
    provider.script(blocked, [], { status: 200, body: { decision: "BLOCKED", riskScore: 97, reasons: ["sanctioned entity", "mixer"] } });
    const ids = [];
    for (const destination of [down, garbage, blocked])
      ids.push((await s.api.createTransfer(nativeTransfer(s, Q, { destinationAddress: destination }))).json().id);
    const [recovered, afterGarbage, refused] = await Promise.all(ids.map((id) => waitForStatus(s.api, id, ENDED)));

    // Both cleared, both released (the source's nonce window has room): the older one at once, the
    // other after it, from QUEUED when its checks ended first.
    expect(recovered.status).toBe("PENDING_SIGNATURE");
    expect(await waitForStatus(s.api, afterGarbage.id, ["PENDING_SIGNATURE"])).toMatchObject({ nonce: recovered.nonce + 1 });
    // Two failed attempts each (three requests, below), back to 0 with the verdict: a later
    // re-run before release or broadcast counts its own attempts from there.
    expect(recovered.screening).toEqual({ provider: "http", decision: "CLEAR", riskScore: 12.5, reasons: ["low risk"] });
    expect(await screeningAttempts(recovered.id)).toBe(0);
    expect(afterGarbage.screening).toEqual({ provider: "http", decision: "CLEAR", riskScore: null, reasons: [] });
    expect(await screeningAttempts(afterGarbage.id)).toBe(0);
    expect(provider.requests.filter((r) => r.transactionId === afterGarbage.id)).toHaveLength(3);
    expect(refused).toMatchObject({
      status: "BLOCKED",
      subStatus: "REJECTED_AML_SCREENING",
      statusReason: "sanctioned entity; mixer",
      screening: { provider: "http", decision: "BLOCKED", riskScore: 97, reasons: ["sanctioned entity", "mixer"] },
    });
    // The provider was told the transfer as stored.
    const asked = provider.requests.find((r) => r.transactionId === recovered.id);
    expect(asked).toMatchObject({
      tenantId: s.tenant.tenantId,
      networkCode: "QUANTUM_SANDBOX",
      chainId: 20804,
      sourceAddress: s.wallet.address,
      destinationAddress: down,
      assetId: NATIVE.QUANTUM_SANDBOX,
      asset: { kind: "NATIVE", symbol: "Q", decimals: 18, contractAddress: null },
      amount: Q.toString(),
    });
    expect(provider.requests.filter((r) => r.transactionId === recovered.id)).toHaveLength(3);
  });

  it("blocks with reason 'provider unavailable' when the provider stays down (fail closed)", async () => {
    const s = await fundedSource(() => server, t.db, devnet(), 10n * Q);
    const destination = newSignerKey().address;
    provider.script(destination, [], { status: 503, body: "down for maintenance" });
    const id = (await s.api.createTransfer(nativeTransfer(s, Q, { destinationAddress: destination }))).json().id;
    const blocked = await waitForStatus(s.api, id, ENDED);
    expect(blocked).toMatchObject({
      status: "BLOCKED",
      subStatus: "REJECTED_AML_SCREENING",
      statusReason: "provider unavailable",
      screening: { provider: "http", decision: "BLOCKED", riskScore: null, reasons: ["provider unavailable"] },
      nonce: null,
      signingHash: null,
    });
    expect(await screeningAttempts(id)).toBe(3);
    expect(provider.requests.filter((r) => r.transactionId === id)).toHaveLength(3);
  });
});
