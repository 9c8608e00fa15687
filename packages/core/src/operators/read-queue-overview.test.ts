import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServiceDeps } from "../testing/service-deps";
import type { ServiceDeps } from "../deps/service-deps";
import { cancelJob } from "./cancel-job";
import { listDaemonInstances } from "./list-daemon-instances";
import { listFailedJobs } from "./list-failed-jobs";
import { readQueuesOverview } from "./read-queue-overview";
import { retryFailedJob } from "./retry-failed-job";
import { schema } from "@qc/db";

const operator = {
  operatorId: "01970000-0000-7000-8000-000000000001",
  sessionId: "01970000-0000-7000-8000-000000000002",
  email: "ops@example.com",
  name: null,
};

// Real pg-boss on a real database. The deps' boss only sends (web role), so the test plays the
// worker itself with fetch/complete/fail, which is what a daemon does.
describe("queue overview, failed jobs, retry and cancel", () => {
  const t = useTestDatabase();
  let deps: ServiceDeps & { close(): Promise<void> };
  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t });
    const boss = deps.jobs.boss;
    await boss.createQueue("test.flaky.dead");
    await boss.createQueue("test.flaky", { retryLimit: 0, deadLetter: "test.flaky.dead" } as never);
    await boss.createQueue("test.patient", { retryLimit: 5, retryDelay: 3600 } as never);
  });
  afterAll(() => deps?.close());

  it("counts queued, active, failed and dead-lettered jobs per queue, with the oldest due job and a per-minute series", async () => {
    const boss = deps.jobs.boss;
    for (let i = 0; i < 3; i++) await boss.send("test.flaky", { n: i });
    await boss.send("test.flaky", { n: 99 }, { startAfter: new Date(Date.now() + 3600_000) });
    const [done] = await boss.fetch("test.flaky");
    await boss.complete("test.flaky", done!.id);
    const [active] = await boss.fetch("test.flaky");
    const [failing] = await boss.fetch("test.flaky");
    await boss.fail("test.flaky", failing!.id, { error: "receiver said no" });

    const overview = await readQueuesOverview({ db: t.db, now: () => new Date(Date.now() + 2_000) });
    const flaky = overview.queues.find((q) => q.name === "test.flaky")!;
    expect(flaky).toMatchObject({ deadLetterQueue: "test.flaky.dead", queued: 1, ready: 0, active: 1, failed: 1, deadLettered: 1 });
    // The dead-letter queue is shown through its source, not as a queue of its own.
    expect(overview.queues.map((q) => q.name)).not.toContain("test.flaky.dead");
    expect(overview.queues.map((q) => q.name)).toEqual(expect.arrayContaining(["email.send", "transfers.check", "test.patient"]));
    expect(flaky.series).toHaveLength(60);
    const sum = (key: "created" | "completed" | "failed") => flaky.series.reduce((s, p) => s + p[key], 0);
    expect({ created: sum("created"), completed: sum("completed"), failed: sum("failed") }).toEqual({
      created: 4,
      completed: 1,
      failed: 1,
    });
    expect(new Date(flaky.series.at(-1)!.at).getTime()).toBeLessThanOrEqual(Date.now() + 2_000);

    await boss.send("test.patient", { waiting: true });
    const later = await readQueuesOverview({ db: t.db, now: () => new Date(Date.now() + 90_000) });
    const patient = later.queues.find((q) => q.name === "test.patient")!;
    expect(patient).toMatchObject({ queued: 1, ready: 1, deadLettered: 0 });
    expect(patient.oldestReadyAgeSeconds).toBeGreaterThanOrEqual(89);
    await boss.complete("test.flaky", active!.id);
  });

  it("lists dead-lettered and retrying jobs; retry sends a dead-lettered job back, cancel gives up on one", async () => {
    const boss = deps.jobs.boss;
    await boss.send("test.patient", { will: "retry" });
    const [patientJob] = await boss.fetch("test.patient");
    await boss.fail("test.patient", patientJob!.id, { error: "dependency down" });

    const jobs = await listFailedJobs({ db: t.db });
    const dead = jobs.find((job) => job.queue === "test.flaky.dead")!;
    expect(dead).toMatchObject({ sourceQueue: "test.flaky", status: "DEAD_LETTERED" });
    const retrying = jobs.find((job) => job.id === patientJob!.id)!;
    expect(retrying).toMatchObject({ queue: "test.patient", status: "RETRYING", error: "dependency down" });
    expect(retrying.nextAttemptAt).not.toBeNull();

    const retried = await retryFailedJob({ db: t.db, jobs: deps.jobs }, { jobId: dead.id, operator });
    expect(retried).toMatchObject({ jobId: dead.id, queue: "test.flaky", status: "REQUEUED" });
    const [again] = await boss.fetch("test.flaky");
    expect(again!.data).toEqual(expect.objectContaining({ n: expect.any(Number) }));
    expect((await listFailedJobs({ db: t.db })).some((job) => job.id === dead.id)).toBe(false);
    await expect(retryFailedJob({ db: t.db, jobs: deps.jobs }, { jobId: again!.id, operator })).rejects.toMatchObject({
      error: "CONFLICT",
    });

    const cancelled = await cancelJob({ db: t.db, jobs: deps.jobs }, { jobId: patientJob!.id, operator });
    expect(cancelled).toMatchObject({ status: "CANCELLED", queue: "test.patient" });
    expect((await listFailedJobs({ db: t.db })).some((job) => job.id === patientJob!.id)).toBe(false);
    await expect(cancelJob({ db: t.db, jobs: deps.jobs }, { jobId: patientJob!.id, operator })).rejects.toMatchObject({
      error: "CONFLICT",
    });
    await expect(
      retryFailedJob({ db: t.db, jobs: deps.jobs }, { jobId: "01970000-0000-7000-8000-0000000000ff", operator }),
    ).rejects.toMatchObject({ error: "NOT_FOUND" });
  });

  it("tells running, silent and stopped daemons apart by their heartbeats", async () => {
    const now = new Date("2026-11-21T10:00:00.000Z");
    const beat = (instanceId: string, lastBeatAt: Date, stoppedAt: Date | null = null) => ({
      instanceId,
      hostname: "h",
      pid: 1,
      version: "1",
      queues: ["email.send"],
      startedAt: new Date(now.getTime() - 3600_000),
      lastBeatAt,
      stoppedAt,
    });
    await t.db
      .insert(schema.daemonHeartbeats)
      .values([
        beat("running", new Date(now.getTime() - 5_000)),
        beat("silent", new Date(now.getTime() - 120_000)),
        beat("stopped", new Date(now.getTime() - 60_000), new Date(now.getTime() - 60_000)),
      ]);
    const instances = await listDaemonInstances({ db: t.db, now: () => now });
    expect(Object.fromEntries(instances.map((i) => [i.instanceId, [i.status, i.lastBeatAgeSeconds]]))).toEqual({
      running: ["RUNNING", 5],
      silent: ["SILENT", 120],
      stopped: ["STOPPED", 60],
    });
  });
});
