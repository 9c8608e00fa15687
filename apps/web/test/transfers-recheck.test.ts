import { createServer, type Server } from "node:http";
import { defaultTransferConfig, type ServiceConfig } from "@qc/core";
import type { Daemon } from "@qc/daemon";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSignerKey } from "./custody-helpers";
import { startTestServer, type TestServer } from "./harness";
import { minedFrom, signPending, statusChanges, statusPath, waitForRecord } from "./transfers-back-helpers";
import { devnetConfig, fundedSource, nativeTransfer, startTransfersDaemon, type FundedSource } from "./transfers-front-helpers";

/** An HTTP screening provider on loopback: CLEAR unless told otherwise for a destination. */
function startProvider() {
  const down = new Set<string>();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const { destinationAddress } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { destinationAddress: string };
    if (down.has(destinationAddress)) res.writeHead(503).end("down");
    else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ decision: "CLEAR", riskScore: 1, reasons: [] }));
  });
  return {
    goDownFor: (destination: string) => down.add(destination),
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return `http://127.0.0.1:${(server.address() as { port: number }).port}/screen`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The re-run of policy and screening before value moves, through the daemon's real jobs
 * (pg-boss retries included), HTTPS and the devnet. RECHECK_AFTER_SECONDS is 0 here, so every
 * release from QUEUED and every broadcast decides again.
 */
describe("transfers: policy and screening taken again by the daemon's release-next and broadcast jobs", () => {
  const t = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 200 });
  const provider = startProvider();
  let server: TestServer;
  let daemon: Daemon;

  beforeAll(async () => {
    const config: Partial<ServiceConfig> = devnetConfig(devnet(), {
      screening: { denylist: [], providerUrl: await provider.listen(), maxAttempts: 2 },
      // A window of one (NONCE_WINDOW=1): the second transfer waits QUEUED and is re-checked by release-next.
      transfers: { ...defaultTransferConfig(), recheckAfterSeconds: 0, nonceWindow: 1 },
    });
    server = await startTestServer({ database: t, config });
    daemon = await startTransfersDaemon(t.url, config);
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
    await provider.close();
  });

  const create = async (source: FundedSource, destinationAddress: string) => {
    const res = await source.api.createTransfer(nativeTransfer(source, 10n ** 18n, { destinationAddress }));
    expect(res.status, res.text).toBe(201);
    return waitForRecord(source.api, res.json().id, ["PENDING_SIGNATURE", "QUEUED", "BLOCKED", "FAILED"]);
  };
  const ENDED = ["BLOCKED", "BROADCASTING", "CONFIRMING", "COMPLETED", "FAILED"];

  it(
    "blocks a signed transfer whose destination the tenant denylisted after its checks, and the next one completes " + "with its nonce",
    async () => {
      const s = await fundedSource(() => server, t.db, devnet(), 10n * 10n ** 18n);
      const denied = newSignerKey().address;
      const first = await create(s, denied);
      const second = await create(s, newSignerKey().address);
      expect([first.status, second.status]).toEqual(["PENDING_SIGNATURE", "QUEUED"]);

      expect(
        (await s.api.put("/v1/settings/screening-denylist", { entries: [{ address: denied, label: "listed after the check" }] })).status,
      ).toBe(200);
      await signPending(s.api, first.id, s.key.secretKey);
      const blocked = await waitForRecord(s.api, first.id, ENDED);
      expect(blocked).toMatchObject({
        status: "BLOCKED",
        subStatus: "REJECTED_AML_SCREENING",
        statusReason: `destination ${denied} is on the tenant's denylist (listed after the check)`,
        chainTxHash: null,
        broadcastAt: null,
      });
      expect(await statusPath(s.api, first.id)).toEqual(["SUBMITTED", "PENDING_SIGNATURE", "SIGNED", "BLOCKED"]);
      const timeline = (await s.api.get(`/v1/transactions/${first.id}/events`)).json().events;
      expect(timeline.at(-1)).toMatchObject({ from: "SIGNED", to: "BLOCKED", actor: { type: "system", id: "transfers.broadcast" } });
      expect((await statusChanges(t.db, first.id)).at(-1)).toMatchObject({ from: "SIGNED", to: "BLOCKED" });

      // release-next re-decides the queued one (clear) and releases it on the nonce the blocked one never used.
      const released = await waitForRecord(s.api, second.id, ["PENDING_SIGNATURE", "BLOCKED", "FAILED"]);
      expect(released).toMatchObject({ status: "PENDING_SIGNATURE", nonce: first.nonce });
      await signPending(s.api, second.id, s.key.secretKey);
      expect(await waitForRecord(s.api, second.id, ["COMPLETED", "BLOCKED", "FAILED"])).toMatchObject({
        status: "COMPLETED",
        nonce: first.nonce,
      });
      expect(await minedFrom(devnet(), s.wallet.address)).toBe(first.nonce + 1);
    },
  );

  it(
    "blocks 'provider unavailable' after the broadcast job's retries when the provider is down at the re-check; " + "nothing is sent",
    async () => {
      const s = await fundedSource(() => server, t.db, devnet(), 10n * 10n ** 18n);
      const destination = newSignerKey().address;
      const row = await create(s, destination);
      expect(row.status).toBe("PENDING_SIGNATURE");
      provider.goDownFor(destination);
      await signPending(s.api, row.id, s.key.secretKey);
      // pg-boss retries the broadcast job (2 s); the second failed attempt fails closed.
      const blocked = await waitForRecord(s.api, row.id, ENDED, 30_000);
      expect(blocked).toMatchObject({
        status: "BLOCKED",
        subStatus: "REJECTED_AML_SCREENING",
        statusReason: "provider unavailable",
        screening: { provider: "http", decision: "BLOCKED", riskScore: null, reasons: ["provider unavailable"] },
        chainTxHash: null,
      });
      expect(await minedFrom(devnet(), s.wallet.address)).toBe(0);
    },
  );
});
