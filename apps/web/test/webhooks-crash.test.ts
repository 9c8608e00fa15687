import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultWebhookConfig } from "@qc/core";
import { createTenantFixture } from "@qc/core/testing";
import { eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "./custody-helpers";
import { startTestServer, TEST_PEPPER, type TestServer } from "./harness";
import { eventually } from "./identity-helpers";
import { startReceiver, type TestReceiver } from "./webhooks-receiver";

const MAIN = fileURLToPath(new URL("../../daemon/src/main.ts", import.meta.url));

describe("webhook delivery survives the daemon being killed mid-delivery", () => {
  const t = useTestDatabase();
  const secretKey = randomBytes(32);
  const work = mkdtempSync(join(tmpdir(), "qc-webhooks-crash-"));
  let receiver: TestReceiver;
  let server: TestServer;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    receiver = await startReceiver();
    writeFileSync(join(work, "receiver-ca.pem"), receiver.certificate);
    server = await startTestServer({
      database: t,
      config: { webhooks: { ...defaultWebhookConfig(), allowPrivateUrls: true, secretKeys: { current: secretKey, previous: [] } } },
    });
  });
  afterAll(async () => {
    for (const child of children) child.kill("SIGKILL");
    await server?.close();
    await receiver?.close();
  });

  /** The daemon as production runs it (apps/daemon/src/main.ts), configured only by its environment. */
  async function startDaemonProcess(instanceId: string): Promise<ChildProcess> {
    const child = spawn(process.execPath, ["--import", "tsx", MAIN], {
      env: {
        ...process.env,
        DATABASE_URL: t.url,
        DAEMON_INSTANCE_ID: instanceId,
        DATA_DIR: work,
        LOG_LEVEL: "warn",
        // Private webhook URLs (the receiver is on loopback) are a development-mode setting.
        QC_DEV_MODE: "true",
        WEBHOOK_ALLOW_PRIVATE_URLS: "true",
        WEBHOOK_SECRET_KEY: secretKey.toString("hex"),
        WEBHOOK_DELIVERY_TIMEOUT_MS: "2000",
        WEBHOOK_SWEEP_INTERVAL_MS: "300",
        // The receiver's self-signed certificate, trusted the way an operator adds a private CA.
        NODE_EXTRA_CA_CERTS: join(work, "receiver-ca.pem"),
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    children.push(child);
    // Drained so a chatty child never blocks on a full pipe; shown if it dies before it is up.
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString("utf8")).slice(-4000)));
    const died = new Promise<never>((_, reject) =>
      child.on("exit", (code, signal) => reject(new Error(`daemon ${instanceId} exited (${code ?? signal}) before it was up:\n${stderr}`))),
    );
    died.catch(() => {}); // a later, intended kill is not a failure
    await Promise.race([
      died,
      eventually(
        async () => (await t.db.select().from(schema.daemonHeartbeats).where(eq(schema.daemonHeartbeats.instanceId, instanceId)))[0],
        60_000,
      ),
    ]);
    return child;
  }

  it("sends every event after a restart, repeats only with the same webhook-id, and loses nothing", { timeout: 180_000 }, async () => {
    let holding = true;
    receiver.script("/crash", () => (holding ? "hang" : { status: 200, body: "ok" }));
    const tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const api = client(() => server, tenant.authorization);
    const hook = (await api.post("/v1/webhooks", { url: receiver.url("/crash") })).json();
    const sendTest = async () => (await api.post(`/v1/webhooks/${hook.id}/test`)).json().eventId as string;

    const first = await startDaemonProcess("webhooks-crash-a");
    const before = [await sendTest(), await sendTest(), await sendTest(), await sendTest()];
    // An attempt is on the wire, unanswered: that is when the daemon dies.
    await eventually(async () => receiver.held() >= 1, 60_000);
    const inFlight = new Set(receiver.received.map((r) => r.json.id));
    const exited = new Promise((resolve) => first.on("exit", resolve));
    first.kill("SIGKILL");
    await exited;
    // Events keep coming while no daemon runs.
    const during = [await sendTest(), await sendTest()];
    holding = false;

    await startDaemonProcess("webhooks-crash-b");
    const events = [...before, ...during];
    const deliveries = await eventually(async () => {
      const rows = await t.db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.endpointId, hook.id));
      return rows.length === events.length && rows.every((row) => row.status === "DELIVERED") ? rows : undefined;
    }, 120_000);
    expect(new Set(deliveries.map((d) => d.eventId))).toEqual(new Set(events));

    const received = receiver.received.filter((r) => r.path === "/crash");
    // Every event arrived; every copy carries its own event's id and the same bytes.
    expect(new Set(received.map((r) => r.headers["webhook-id"]))).toEqual(new Set(events));
    for (const request of received) {
      expect(request.json.id).toBe(request.headers["webhook-id"]);
      const copies = received.filter((r) => r.json.id === request.json.id);
      for (const copy of copies) expect(copy.body.equals(request.body)).toBe(true);
    }
    // What was on the wire when the daemon died was sent again after the restart.
    for (const id of inFlight) expect(received.filter((r) => r.json.id === id).length, id).toBeGreaterThanOrEqual(2);
    // The attempt cut short left no record; the one that succeeded did.
    const attempts = await t.db
      .select()
      .from(schema.webhookDeliveryAttempts)
      .where(eq(schema.webhookDeliveryAttempts.tenantId, tenant.tenantId));
    for (const delivery of deliveries) {
      const own = attempts.filter((a) => a.deliveryId === delivery.id);
      expect(own.at(-1)?.statusCode, delivery.eventId).toBe(200);
    }
  });
});
