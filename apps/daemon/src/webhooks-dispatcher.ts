import { setTimeout as sleep } from "node:timers/promises";
import { dispatchOutboxEvents, rearmOverdueWebhookDeliveries, type Logger } from "@qc/core";
import { createNotificationListener } from "@qc/db";
import { OUTBOX_NOTIFY_CHANNEL } from "@qc/db/queries";
import type { JobContext } from "./context";

/** Events fanned out per database transaction. */
const DISPATCH_BATCH = 200;
/** Overdue deliveries re-armed per sweep. */
const REARM_BATCH = 200;
/**
 * How long a wake-up waits before the fan-out starts, so that the events of the transitions
 * committing meanwhile are taken in the same database transaction: under load a notification
 * comes with nearly every commit, and one fan-out per notification costs a transaction of three
 * or four statements for one or two events. Adds at most this much to a webhook's latency.
 */
const COALESCE_MS = 25;

export interface WebhooksDispatcher {
  /** Stops listening and sweeping, after the drain in progress. */
  stop(): Promise<void>;
}

/**
 * Turns outbox events into webhook deliveries as soon as they commit: a LISTEN on the outbox
 * channel wakes it (sql/030_event_outbox_notify.sql), and a sweep every `sweepIntervalMs` covers
 * what a notification cannot (events committed while the listener was reconnecting) and re-arms
 * deliveries whose job or worker was lost. Several daemons may run it at once: the fan-out takes
 * outbox rows with SKIP LOCKED. One drain at a time per process, each pass `COALESCE_MS` after the
 * wake-up; a wake-up during a pass runs another after it.
 */
export function startWebhooksDispatcher(ctx: JobContext, options: { databaseUrl: string; log: Logger }): WebhooksDispatcher {
  const log = options.log.child({ component: "webhooks-dispatcher" });
  const sweepIntervalMs = ctx.config.webhooks.sweepIntervalMs;
  let stopped = false;
  let running: Promise<void> | null = null;
  let dispatchRequested = false;
  let sweepRequested = false;

  async function drain() {
    while ((dispatchRequested || sweepRequested) && !stopped) {
      await sleep(COALESCE_MS);
      if (stopped) break;
      const sweep = sweepRequested;
      dispatchRequested = false;
      sweepRequested = false;
      let dispatched: number;
      do {
        dispatched = (await dispatchOutboxEvents(ctx, { limit: DISPATCH_BATCH })).events;
      } while (dispatched === DISPATCH_BATCH && !stopped);
      if (sweep) {
        const rearmed = await rearmOverdueWebhookDeliveries(ctx, { limit: REARM_BATCH });
        if (rearmed > 0) log.warn({ rearmed }, "re-enqueued overdue webhook deliveries");
      }
    }
  }

  function run(sweep: boolean) {
    if (stopped) return;
    dispatchRequested = true;
    if (sweep) sweepRequested = true;
    if (running) return;
    running = drain()
      .catch((err: unknown) => log.error({ err }, "webhook fan-out failed; the next sweep tries again"))
      .finally(() => {
        running = null;
      });
  }

  // A reconnect waits a fixed delay, not a growing one: the sweep covers the gap meanwhile.
  const reconnectMs = Math.min(sweepIntervalMs, 5_000);
  const cannotListen = (err: unknown) => log.warn({ err }, "cannot listen for outbox events; retrying (the sweep still runs)");
  const listener = createNotificationListener({
    url: options.databaseUrl,
    channel: OUTBOX_NOTIFY_CHANNEL,
    applicationName: "qc-outbox-listener",
    onNotification: () => run(false),
    // Anything committed while nobody listened is in the outbox: take it now.
    onListening: () => run(false),
    onLost: (err) => log.warn({ err }, "outbox listener lost; reconnecting"),
    onReconnectFailed: cannotListen,
    backoff: { minMs: reconnectMs, maxMs: reconnectMs },
  });

  const sweeper = setInterval(() => run(true), sweepIntervalMs);
  sweeper.unref();
  listener.start().catch(cannotListen);
  run(true);

  return {
    async stop() {
      stopped = true;
      clearInterval(sweeper);
      await listener.close();
      while (running) await running;
    },
  };
}
