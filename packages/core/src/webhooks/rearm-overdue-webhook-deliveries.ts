import { rearmOverdueWebhookDeliveries as rearmOverdueRows } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";

/**
 * How long past due (or past its lease) a PENDING delivery may sit before the sweeper enqueues
 * it again: several sweeps, so a job that is merely waiting its turn is not doubled at once.
 */
export const overdueGraceMs = (sweepIntervalMs: number) => 6 * sweepIntervalMs;

/**
 * The safety net behind the per-delivery jobs: a delivery whose job was lost (dead-lettered
 * after a long database outage) or whose worker died mid-attempt is made due again and gets a
 * fresh `webhooks.deliver` job. A job that turns up anyway finds the delivery leased or done
 * and does nothing, so a spare job costs one UPDATE, never a second send.
 */
export async function rearmOverdueWebhookDeliveries(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "config">,
  input: { limit: number },
): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const now = deps.now();
    const overdue = await rearmOverdueRows(tx, {
      overdueBefore: new Date(now.getTime() - overdueGraceMs(deps.config.webhooks.sweepIntervalMs)),
      at: now,
      limit: input.limit,
    });
    for (const delivery of overdue) await deps.jobs.send(tx, "webhooks.deliver", { tenantId: delivery.tenantId, deliveryId: delivery.id });
    return overdue.length;
  });
}
