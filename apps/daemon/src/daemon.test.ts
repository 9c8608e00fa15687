import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger, deadLetterQueue, FinalJobError, JOBS } from "@qc/core";
import { eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { waitFor, waitForJobState } from "../test/wait";
import { startDaemon, type Daemon } from "./daemon";

const QUEUE = "maintenance.prune-heartbeats";
const log = createLogger("daemon-test", "silent");

describe("daemon", () => {
  const t = useTestDatabase();
  const running: Daemon[] = [];
  const start = async (options: Partial<Parameters<typeof startDaemon>[0]> = {}) => {
    const daemon = await startDaemon({ databaseUrl: t.url, log, heartbeatSeconds: 1, schedules: [], ...options });
    running.push(daemon);
    return daemon;
  };
  afterEach(async () => {
    while (running.length) await running.pop()!.stop({ timeoutMs: 5_000 });
  });

  it("writes a heartbeat row while running and marks it stopped on shutdown", async () => {
    const daemon = await start({ instanceId: "hb-test" });
    const [row] = await t.db.select().from(schema.daemonHeartbeats).where(eq(schema.daemonHeartbeats.instanceId, "hb-test"));
    expect(row).toMatchObject({ instanceId: "hb-test", pid: process.pid, stoppedAt: null });
    expect(row!.queues).toContain(QUEUE);
    const first = row!.lastBeatAt.getTime();
    await waitFor(async () => {
      const [again] = await t.db.select().from(schema.daemonHeartbeats).where(eq(schema.daemonHeartbeats.instanceId, "hb-test"));
      return again!.lastBeatAt.getTime() > first;
    });
    running.pop();
    await daemon.stop();
    const [stopped] = await t.db.select().from(schema.daemonHeartbeats).where(eq(schema.daemonHeartbeats.instanceId, "hb-test"));
    expect(stopped!.stoppedAt).not.toBeNull();
  });

  it("runs a job enqueued in a committed transaction, and never one from a rolled-back transaction", async () => {
    const seen: number[] = [];
    const daemon = await start({
      handlers: { [QUEUE]: async (payload: { olderThanHours: number }) => void seen.push(payload.olderThanHours) },
    });
    let committedId: string | null = null;
    await t.db.transaction(async (tx) => {
      committedId = await daemon.jobs.send(tx, QUEUE, { olderThanHours: 1 });
    });
    let rolledBackId: string | null = null;
    await expect(
      t.db.transaction(async (tx) => {
        rolledBackId = await daemon.jobs.send(tx, QUEUE, { olderThanHours: 2 });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await waitForJobState(daemon.boss, QUEUE, committedId!, ["completed"]);
    expect(await daemon.boss.getJobById(QUEUE, rolledBackId!)).toBeNull();
    expect(seen).toEqual([1]);
  });

  it("refuses to enqueue a payload that breaks the catalog schema", async () => {
    const daemon = await start();
    await expect(t.db.transaction((tx) => daemon.jobs.send(tx, QUEUE, { olderThanHours: -5 }))).rejects.toThrow();
  });

  it("dead-letters an invalid payload and a non-retryable failure; retries a retryable one", async () => {
    let attempts = 0;
    const daemon = await start({
      handlers: {
        [QUEUE]: async (payload: { olderThanHours: number }) => {
          if (payload.olderThanHours === 13) throw new FinalJobError("cannot ever work");
          if (payload.olderThanHours === 7 && ++attempts < 2) throw new Error("transient");
          return { ok: true };
        },
      },
    });
    const invalid = await daemon.boss.send(QUEUE, { olderThanHours: "not a number" });
    const permanent = await daemon.boss.send(QUEUE, { olderThanHours: 13 }, { retryLimit: 5, retryDelay: 1 });
    const transient = await daemon.boss.send(QUEUE, { olderThanHours: 7 }, { retryLimit: 3, retryDelay: 1, retryBackoff: false });
    await waitForJobState(daemon.boss, QUEUE, invalid!, ["failed"]);
    const failed = await waitForJobState(daemon.boss, QUEUE, permanent!, ["failed"]);
    expect(failed.retryCount).toBe(0);
    const done = await waitForJobState(daemon.boss, QUEUE, transient!, ["completed"]);
    expect(done.retryCount).toBe(1);
    const dead = await waitFor(async () => {
      const jobs = await daemon.boss.fetch(deadLetterQueue(QUEUE), { batchSize: 10 });
      return jobs.length >= 2 ? jobs : undefined;
    });
    expect(dead.map((j) => (j.data as { olderThanHours: unknown }).olderThanHours).sort()).toEqual([13, "not a number"].sort());
  });

  it("drains a backlog left by a burst at once, without waiting for a poll (transfers.broadcast)", async () => {
    // The stall of docs/performance/nonce-window.md: jobs sent while every worker is busy set the
    // workers' NOTIFY flag once; when the sends stop, a worker that fetches one job a time waits
    // its fallback poll (2 s) after each job, so the backlog drains at one job a worker a poll.
    const BROADCAST = "transfers.broadcast";
    const { batchSize, localConcurrency, pollingIntervalSeconds = 2 } = JOBS[BROADCAST];
    const inFlight = batchSize * localConcurrency;
    let started = 0;
    let finished = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const daemon = await start({
      confirmations: { enabled: false },
      deposits: { enabled: false },
      handlers: {
        [BROADCAST]: async () => {
          started += 1;
          await gate;
          finished += 1;
        },
      },
    });
    const sendMany = (count: number) =>
      t.db.transaction(async (tx) => {
        for (let i = 0; i < count; i++) await daemon.jobs.send(tx, BROADCAST, { tenantId: randomUUID(), transactionId: randomUUID() });
      });
    await sendMany(inFlight);
    await waitFor(async () => started === inFlight);
    const backlog = inFlight * 5;
    await sendMany(backlog); // the burst: every worker is busy while these are announced
    open();
    // Polls alone would need (backlog / inFlight) × 2 s = 10 s; the bound is below two polls.
    await waitFor(async () => finished === inFlight + backlog, 2 * pollingIntervalSeconds * 1000 - 500);
    expect(started).toBe(inFlight + backlog);
  });

  it("runs a fetch through its queue's batch handler and judges each job on its own (transfers.broadcast)", async () => {
    const BROADCAST = "transfers.broadcast";
    const tenantId = randomUUID();
    const daemon = await start({ confirmations: { enabled: false }, deposits: { enabled: false } });
    // Sent in one transaction, so that one fetch takes both; then a payload the catalog refuses.
    const missing = await t.db.transaction(async (tx) => [
      await daemon.jobs.send(tx, BROADCAST, { tenantId, transactionId: randomUUID() }),
      await daemon.jobs.send(tx, BROADCAST, { tenantId, transactionId: randomUUID() }),
    ]);
    const garbled = await daemon.boss.send(BROADCAST, { tenantId, transactionId: "not a uuid" });
    for (const id of missing) {
      const job = await waitForJobState(daemon.boss, BROADCAST, id!, ["failed"]);
      expect(job).toMatchObject({ retryCount: 0, output: { error: "transaction not found" } });
    }
    const job = await waitForJobState(daemon.boss, BROADCAST, garbled!, ["failed"]);
    expect(job).toMatchObject({ retryCount: 0, output: { error: "invalid payload" } });
  });

  it("prunes heartbeats of daemons gone for longer than the cut-off", async () => {
    const old = new Date(Date.now() - 10 * 24 * 3600_000);
    await t.db.insert(schema.daemonHeartbeats).values([
      { instanceId: "gone", hostname: "h", pid: 1, version: "0", queues: [], startedAt: old, lastBeatAt: old, stoppedAt: old },
      { instanceId: "recent", hostname: "h", pid: 2, version: "0", queues: [], startedAt: new Date(), lastBeatAt: new Date() },
    ]);
    const daemon = await start({ instanceId: "pruner" });
    const id = await t.db.transaction((tx) => daemon.jobs.send(tx, QUEUE, { olderThanHours: 168 }));
    const job = await waitForJobState(daemon.boss, QUEUE, id!, ["completed"]);
    expect(job.output).toEqual({ removed: 1 });
    const ids = (await t.db.select().from(schema.daemonHeartbeats)).map((r) => r.instanceId);
    expect(ids).toEqual(expect.arrayContaining(["pruner", "recent"]));
    expect(ids).not.toContain("gone");
  });

  it("stops gracefully on SIGTERM as a real process", async () => {
    const main = fileURLToPath(new URL("./main.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", main], {
      // Development mode: production would refuse to start without SMTP_URL and the secrets.
      env: { ...process.env, QC_DEV_MODE: "true", DATABASE_URL: t.url, DAEMON_INSTANCE_ID: "sigterm-test", LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    await waitFor(async () => {
      const [row] = await t.db.select().from(schema.daemonHeartbeats).where(eq(schema.daemonHeartbeats.instanceId, "sigterm-test"));
      return row;
    }, 60_000);
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited, stderr).toBe(0);
    const [row] = await t.db.select().from(schema.daemonHeartbeats).where(eq(schema.daemonHeartbeats.instanceId, "sigterm-test"));
    expect(row!.stoppedAt).not.toBeNull();
  });
});
