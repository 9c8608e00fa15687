import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createNotificationListener, type NotificationListener } from "./notification-listener";
import { useTestDatabase } from "./testing";

/**
 * The LISTEN connection against real PostgreSQL: notifications arrive in order, a cut connection
 * is reported and replaced, and reconnects that fail back off. The listener logs in as a role of
 * its own, so the test can refuse its reconnects (NOLOGIN) without touching anyone else's.
 */
describe("createNotificationListener", () => {
  const t = useTestDatabase();
  const suffix = randomBytes(4).toString("hex");
  const role = `qc_listener_${suffix}`;
  const channel = `qc_test_${suffix}`;
  const applicationName = `qc-test-listener-${suffix}`;
  const backoff = { minMs: 100, maxMs: 400 };
  const events: { kind: "listening" | "lost" | "reconnect_failed"; at: number }[] = [];
  const payloads: string[] = [];
  let listener: NotificationListener;

  const count = (kind: (typeof events)[number]["kind"]) => events.filter((event) => event.kind === kind).length;
  const listenerPids = async () =>
    (await t.db.execute(sql`select pid from pg_stat_activity where application_name = ${applicationName}`)).rows.map((row) =>
      Number(row.pid),
    );
  const cutConnection = () =>
    t.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${applicationName}`);
  const notify = (payload: string) => t.db.execute(sql`select pg_notify(${channel}, ${payload})`);

  beforeAll(async () => {
    await t.db.execute(sql.raw(`create role ${role} login password '${suffix}'`));
    const url = new URL(t.url);
    url.username = role;
    url.password = suffix;
    listener = createNotificationListener({
      url: url.toString(),
      channel,
      applicationName,
      backoff,
      onNotification: (payload) => payloads.push(payload),
      onListening: () => events.push({ kind: "listening", at: performance.now() }),
      onLost: () => events.push({ kind: "lost", at: performance.now() }),
      onReconnectFailed: () => events.push({ kind: "reconnect_failed", at: performance.now() }),
    });
    await listener.start();
  });
  afterAll(async () => {
    await listener?.close();
    await t.db.execute(sql.raw(`drop role if exists ${role}`));
  });

  it("delivers each committed notification on its channel, once, in order", async () => {
    expect(listener.listening).toBe(true);
    expect(count("listening")).toBe(1);
    await notify("first");
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_notify(${channel}, 'second')`);
      await tx.execute(sql`select pg_notify(${`${channel}_other`}, 'elsewhere')`);
    });
    await expect(
      t.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_notify(${channel}, 'rolled back')`);
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    await notify("third");
    await vi.waitFor(() => expect(payloads).toEqual(["first", "second", "third"]), { timeout: 5_000 });
  });

  it("reports a cut connection, backs off while reconnects fail, and listens again on a new connection", async () => {
    const [before] = await listenerPids();
    expect(before).toBeDefined();
    // Reconnects are refused from now on, then the connection is cut.
    await t.db.execute(sql.raw(`alter role ${role} nologin`));
    await cutConnection();
    await vi.waitFor(() => expect(count("lost")).toBe(1), { timeout: 5_000 });
    expect(listener.listening).toBe(false);
    await vi.waitFor(() => expect(count("reconnect_failed")).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    // Each wait is at least the backoff of its attempt: 100 ms, then 200, then 400 (the cap).
    const lostAt = events.find((event) => event.kind === "lost")!.at;
    const failedAt = events.filter((event) => event.kind === "reconnect_failed").map((event) => event.at);
    expect(failedAt[0]! - lostAt).toBeGreaterThanOrEqual(backoff.minMs - 5);
    expect(failedAt[1]! - failedAt[0]!).toBeGreaterThanOrEqual(2 * backoff.minMs - 5);
    expect(failedAt[2]! - failedAt[1]!).toBeGreaterThanOrEqual(backoff.maxMs - 5);
    expect(count("listening")).toBe(1);

    await t.db.execute(sql.raw(`alter role ${role} login`));
    await vi.waitFor(() => expect(listener.listening).toBe(true), { timeout: 10_000 });
    expect(count("listening")).toBe(2);
    const after = await listenerPids();
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(before);
    await notify("after the cut");
    await vi.waitFor(() => expect(payloads.at(-1)).toBe("after the cut"), { timeout: 5_000 });
  });

  it("stays closed once closed, whatever happens to its connection", async () => {
    await listener.close();
    expect(listener.listening).toBe(false);
    await vi.waitFor(async () => expect(await listenerPids()).toEqual([]), { timeout: 5_000 });
    const seen = events.length;
    await new Promise((resolve) => setTimeout(resolve, 3 * backoff.maxMs));
    expect(events.length).toBe(seen);
    expect(await listenerPids()).toEqual([]);
  });
});
