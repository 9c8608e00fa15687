import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppDeps } from "@qc/api";
import { AppError, listDaemonInstances, readDepositFollowers, readQueuesOverview } from "@qc/core";
import { Gauge, Registry } from "prom-client";

export const METRICS_PATH = "/metrics";

/**
 * `GET /metrics` in the Prometheus text format: the figures of the operators' console (queue
 * counts, oldest due job, jobs in the last hour, daemon heartbeats) and how far each network's
 * deposit follower is behind its chain's head (docs/deposits.md), read from the database (and the node) at
 * each scrape, so any web instance answers for the whole deployment. Without a configured token
 * the route does not exist (404); a wrong or missing bearer token is 401 and counts towards the
 * source's lockout like any other failed credential.
 */
export function createMetricsHandler(deps: AppDeps, token: string | undefined) {
  const expected = token ? digest(token) : undefined;
  return async (req: IncomingMessage, res: ServerResponse, method: string, ip: string): Promise<void> => {
    if (!expected) throw new AppError("NOT_FOUND", `no route ${METRICS_PATH}`);
    if (method !== "GET" && method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD");
      throw new AppError("METHOD_NOT_ALLOWED", "method not allowed; allowed: GET, HEAD");
    }
    await deps.authenticator.refuseIfLockedOut(ip);
    const presented = /^Bearer (\S+)$/i.exec(req.headers.authorization?.trim() ?? "")?.[1];
    if (!presented || !timingSafeEqual(digest(presented), expected)) {
      await deps.authenticator.countFailure(ip);
      res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
      throw new AppError("UNAUTHENTICATED", "metrics need Authorization: Bearer <METRICS_TOKEN>");
    }
    const registry = await collectMetrics(deps);
    const body = await registry.metrics();
    res.statusCode = 200;
    res.setHeader("Content-Type", registry.contentType);
    res.setHeader("Cache-Control", "no-store");
    res.end(method === "HEAD" ? undefined : body);
  };
}

/** Equal-length digests, so the comparison takes the same time whatever was presented. */
function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/** A registry per scrape: two scrapes at once never see each other's half-set gauges. */
async function collectMetrics(deps: AppDeps): Promise<Registry> {
  const source = { db: deps.database.db, now: deps.now };
  const [overview, instances, followers] = await Promise.all([
    readQueuesOverview(source, { windowMinutes: 60, bucketSeconds: 60 }),
    listDaemonInstances(source),
    readDepositFollowers({ db: deps.database.db, chain: deps.chain }),
  ]);
  const registry = new Registry();
  const jobs = new Gauge({
    name: "qc_queue_jobs",
    help: "Jobs per queue and state (queued includes scheduled ones; deadletter: waiting in the queue's dead-letter " + "queue).",
    labelNames: ["queue", "state"],
    registers: [registry],
  });
  const oldest = new Gauge({
    name: "qc_queue_oldest_ready_job_age_seconds",
    help: "How long the oldest due, unstarted job of the queue has waited (0 with none).",
    labelNames: ["queue"],
    registers: [registry],
  });
  const lastHour = new Gauge({
    name: "qc_queue_jobs_last_hour",
    help: "Jobs created, completed and failed in the queue over the last hour.",
    labelNames: ["queue", "event"],
    registers: [registry],
  });
  const heartbeatAge = new Gauge({
    name: "qc_daemon_last_heartbeat_age_seconds",
    help: "Seconds since the daemon instance's last heartbeat.",
    labelNames: ["instance", "hostname"],
    registers: [registry],
  });
  const up = new Gauge({
    name: "qc_daemon_up",
    help: "1 while the daemon instance beats on time, 0 when it is silent or stopped.",
    labelNames: ["instance", "hostname"],
    registers: [registry],
  });
  const behind = new Gauge({
    name: "qc_deposits_blocks_behind",
    help: "Blocks between the network's head and the last block its deposit follower recorded (absent before it starts or while the node is unreachable).",
    labelNames: ["network"],
    registers: [registry],
  });
  for (const follower of followers)
    if (follower.blocksBehind !== null) behind.set({ network: follower.networkCode }, follower.blocksBehind);
  for (const queue of overview.queues) {
    jobs.set({ queue: queue.name, state: "queued" }, queue.queued);
    jobs.set({ queue: queue.name, state: "ready" }, queue.ready);
    jobs.set({ queue: queue.name, state: "active" }, queue.active);
    jobs.set({ queue: queue.name, state: "failed" }, queue.failed);
    jobs.set({ queue: queue.name, state: "deadletter" }, queue.deadLettered);
    oldest.set({ queue: queue.name }, queue.oldestReadyAgeSeconds ?? 0);
    const sum = (key: "created" | "completed" | "failed") => queue.series.reduce((total, point) => total + point[key], 0);
    for (const event of ["created", "completed", "failed"] as const) lastHour.set({ queue: queue.name, event }, sum(event));
  }
  for (const instance of instances) {
    const labels = { instance: instance.instanceId, hostname: instance.hostname };
    heartbeatAge.set(labels, instance.lastBeatAgeSeconds);
    up.set(labels, instance.status === "RUNNING" ? 1 : 0);
  }
  return registry;
}
