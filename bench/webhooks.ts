/**
 * Webhook delivery: how many deliveries per second one daemon sends to a local HTTPS receiver,
 * and how long an event waits from its commit to its first delivery attempt (p50/p95), beside
 * a baseline measured in the same run against the same receiver: bare HTTPS POSTs, one fresh
 * connection each (as every delivery attempt opens one), at the daemon's concurrency.
 *
 * "Commit" is the commit of the database transaction that wrote the event with `emitEvent`: a
 * status change (runTransition) writes its event the same way, in the transaction that makes
 * the change, so this is the delay from a status change to the receiver's first attempt.
 *
 *   ./qc pnpm --filter @qc/bench webhooks   (BENCH_EVENTS, BENCH_LATENCY_EVENTS to resize)
 *
 * Loopback only; bounded (about half a minute); results in bench/results/webhooks-<time>.json.
 */
import { request as httpsRequest, createServer } from "node:https";
import { mkdirSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createLogger, createWebhookEndpoint, defaultWebhookConfig, emitEvent, JOBS, serviceConfig, systemActor } from "@qc/core";
import { createTenantFixture } from "@qc/core/testing";
import { startDaemon } from "@qc/daemon";
import { createDatabase } from "@qc/db";
import { benchDatabase } from "./database";
import { machineLoadWindow } from "./pipeline-observe";
import { loopbackCertificate } from "./web-server";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 500);
const LATENCY_EVENTS = Number(process.env.BENCH_LATENCY_EVENTS ?? 150);
const LATENCY_SPACING_MS = 20;
const CONCURRENCY = JOBS["webhooks.deliver"].localConcurrency;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

const pems = await loopbackCertificate();

/** First arrival of each webhook-id (performance.now(), same process as the emitter). */
const firstSeen = new Map<string, number>();
let arrivals = 0;
const receiver = createServer({ key: pems.key, cert: pems.cert }, (req, res) => {
  req.resume();
  req.on("end", () => {
    arrivals += 1;
    const id = req.headers["webhook-id"];
    if (typeof id === "string" && !firstSeen.has(id)) firstSeen.set(id, performance.now());
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const port = (receiver.address() as AddressInfo).port;

async function until(probe: () => boolean, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  while (!probe()) {
    if (performance.now() > deadline) throw new Error("benchmark timed out waiting for deliveries");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The baseline: `count` bare POSTs at `concurrency`, a new TLS connection each. */
async function bareHttpsPosts(count: number, concurrency: number): Promise<number> {
  const body = JSON.stringify({
    id: "baseline",
    type: "webhook.test",
    timestamp: new Date().toISOString(),
    sequence: 1,
    data: { message: "x".repeat(120) },
  });
  let next = 0;
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const req = httpsRequest(
        {
          host: "127.0.0.1",
          port,
          path: "/baseline",
          method: "POST",
          agent: false,
          ca: pems.cert,
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on("end", resolve);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        await post();
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

const db = await benchDatabase("qc-bench-webhooks");
const database = createDatabase({ url: db.url, applicationName: "qc-bench-webhooks" });
const webhooks = { ...defaultWebhookConfig(), allowPrivateUrls: true, trustedCertificates: pems.cert };
const daemon = await startDaemon({
  databaseUrl: db.url,
  log: createLogger("bench", "warn"),
  heartbeatSeconds: 60,
  schedules: [],
  config: { webhooks },
});
const machineWindow = machineLoadWindow();
try {
  const baselinePerSecond = await bareHttpsPosts(EVENTS, CONCURRENCY);

  const tenant = await createTenantFixture({ db: database.db, pepper: Buffer.alloc(32, 7) });
  const endpoint = await createWebhookEndpoint(
    { db: database.db, now: () => new Date(), config: serviceConfig({ webhooks }) },
    { tenantId: tenant.tenantId, url: `https://127.0.0.1:${port}/hook`, actor: systemActor("bench") },
  );
  const emit = async (count: number) => {
    const ids: string[] = [];
    await database.db.transaction(async (tx) => {
      for (let i = 0; i < count; i++) {
        ids.push(
          (
            await emitEvent(tx, {
              tenantId: tenant.tenantId,
              type: "webhook.test",
              aggregateId: endpoint.id,
              data: { webhookId: endpoint.id, message: "x".repeat(120) },
            })
          ).id,
        );
      }
    });
    return { ids, committedAt: performance.now() };
  };

  // Throughput: a burst of events committed 20 per transaction, timed to the last first arrival.
  const burstStarted = performance.now();
  const burst: string[] = [];
  for (let i = 0; i < EVENTS; i += 20) burst.push(...(await emit(Math.min(20, EVENTS - i))).ids);
  await until(() => burst.every((id) => firstSeen.has(id)), 120_000);
  const burstSeconds = (Math.max(...burst.map((id) => firstSeen.get(id)!)) - burstStarted) / 1000;
  const deliveriesPerSecond = EVENTS / burstSeconds;

  // Latency: one event per transaction on an idle pipeline, commit → first attempt received.
  const delays: number[] = [];
  const pending: { id: string; committedAt: number }[] = [];
  for (let i = 0; i < LATENCY_EVENTS; i++) {
    const { ids, committedAt } = await emit(1);
    pending.push({ id: ids[0]!, committedAt });
    await new Promise((resolve) => setTimeout(resolve, LATENCY_SPACING_MS));
  }
  await until(() => pending.every((p) => firstSeen.has(p.id)), 60_000);
  for (const p of pending) delays.push(firstSeen.get(p.id)! - p.committedAt);
  delays.sort((a, b) => a - b);

  const results = {
    benchmark: "webhooks",
    at: new Date().toISOString(),
    node: process.version,
    workers: { concurrency: CONCURRENCY, batchSize: JOBS["webhooks.deliver"].batchSize },
    baseline: {
      bareHttpsPostsPerSecond: round(baselinePerSecond),
      requests: EVENTS,
      concurrency: CONCURRENCY,
      connection: "new TLS connection per request",
    },
    throughput: {
      events: EVENTS,
      seconds: round(burstSeconds, 2),
      deliveriesPerSecond: round(deliveriesPerSecond),
      ratioToBaseline: round(deliveriesPerSecond / baselinePerSecond, 3),
    },
    commitToFirstAttemptMs: {
      events: LATENCY_EVENTS,
      p50: round(percentile(delays, 50)),
      p95: round(percentile(delays, 95)),
      max: round(delays.at(-1)!),
    },
    receiverRequests: arrivals,
    machine: machineWindow.stop(),
  };
  console.log(JSON.stringify(results, null, 2));
  console.log(
    `\nWebhooks: ${results.throughput.deliveriesPerSecond} deliveries/s (bare HTTPS POST baseline ${results.baseline.bareHttpsPostsPerSecond}/s, ratio ${results.throughput.ratioToBaseline}); ` +
      `commit → first attempt p50 ${results.commitToFirstAttemptMs.p50} ms, p95 ${results.commitToFirstAttemptMs.p95} ms ` +
      `(load ${results.machine.loadavg.join(" ")}, ${results.machine.otherBusyProcesses} other busy processes)`,
  );
  mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
  writeFileSync(new URL(`./results/webhooks-${Date.now()}.json`, import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  await daemon.stop({ timeoutMs: 5_000 });
  await database.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await db.dispose();
}
