import { signQuantumSigningHash } from "@qc/chain";
import { defaultWebhookConfig } from "@qc/core";
import type { Daemon } from "@qc/daemon";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { verifyWebhook } from "@qc/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSignerKey, Q } from "./custody-helpers";
import { startTestServer, type TestServer } from "./harness";
import { eventually } from "./identity-helpers";
import {
  devnetConfig,
  fundedSource,
  nativeTransfer,
  startTransfersDaemon,
  waitForStatus,
  type FundedSource,
} from "./transfers-front-helpers";
import { startReceiver, type TestReceiver } from "./webhooks-receiver";

describe("a complete transfer, reported by webhooks", () => {
  const t = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 0 });
  let receiver: TestReceiver;
  let server: TestServer;
  let daemon: Daemon;
  let source: FundedSource;

  beforeAll(async () => {
    receiver = await startReceiver();
    const config = devnetConfig(devnet(), {
      webhooks: { ...defaultWebhookConfig(), allowPrivateUrls: true, trustedCertificates: receiver.certificate, sweepIntervalMs: 200 },
    });
    server = await startTestServer({ database: t, config });
    daemon = await startTransfersDaemon(t.url, config);
    source = await fundedSource(() => server, t.db, devnet(), 100n * Q);
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
    await receiver?.close();
  });

  it("delivers transaction.status_changed for each status, in order of sequence, signed", { timeout: 120_000 }, async () => {
    const subscribed = await source.api.post("/v1/webhooks", {
      url: receiver.url("/transfers"),
      events: ["transaction.created", "transaction.status_changed"],
    });
    expect(subscribed.status, subscribed.text).toBe(201);
    const secret = subscribed.json().secret as string;

    const created = await source.api.createTransfer(nativeTransfer(source, 2n * Q, { destinationAddress: newSignerKey().address }));
    expect(created.status, created.text).toBe(201);
    const id = created.json().id as string;
    const released = await waitForStatus(source.api, id, ["PENDING_SIGNATURE", "BLOCKED", "FAILED"]);
    expect(released.status).toBe("PENDING_SIGNATURE");
    const signature = signQuantumSigningHash({ signingHash: released.signingHash, secretKey: source.key.secretKey });
    const signed = await source.api.post(`/v1/signer/transactions/${id}/signature`, { signature });
    expect(signed.status, signed.text).toBe(200);

    // Blocks are mined on demand: keep mining until the transfer has its confirmations.
    const completed = await eventually(
      async () => {
        await devnet().mine(1);
        const record = (await source.api.get(`/v1/transactions/${id}`)).json();
        expect(["FAILED", "BLOCKED", "REJECTED", "EXPIRED"]).not.toContain(record.status);
        return record.status === "COMPLETED" ? record : undefined;
      },
      90_000,
      250,
    );

    const history = (await source.api.get(`/v1/transactions/${id}/events`)).json().events as { from: string | null; to: string }[];
    const statuses = history.map((entry) => entry.to);
    expect(statuses).toEqual(["SUBMITTED", "PENDING_SIGNATURE", "SIGNED", "BROADCASTING", "CONFIRMING", "COMPLETED"]);
    const events = await eventually(async () => {
      const got = receiver.received.filter((r) => r.path === "/transfers" && (r.json.data.transaction as { id: string }).id === id);
      return new Set(got.map((r) => r.json.id)).size === statuses.length ? got : undefined;
    });

    // One delivery per event; ordered by sequence they replay the transaction's history exactly.
    const unique = [...new Map(events.map((r) => [r.json.id, r])).values()].sort((x, y) => x.json.sequence - y.json.sequence);
    expect(unique.map((r) => r.json.sequence)).toEqual(statuses.map((_, index) => index + 1));
    expect(unique.map((r) => r.json.type)).toEqual(["transaction.created", ...statuses.slice(1).map(() => "transaction.status_changed")]);
    expect(unique.map((r) => (r.json.data.transaction as { status: string }).status)).toEqual(statuses);
    expect(unique.slice(1).map((r) => r.json.data.previousStatus)).toEqual(statuses.slice(0, -1));
    expect(unique.at(-1)!.json.data.transaction).toMatchObject({ status: "COMPLETED", chainTxHash: completed.chainTxHash });
    for (const request of events) expect(verifyWebhook(secret, request.headers, request.body).id).toBe(request.json.id);
  });
});
