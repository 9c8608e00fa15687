import { reopenWebhookDeliveriesInWindow } from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { requireWebhookEndpoint } from "./require-webhook-endpoint";

/** CONTRACT §18: a resend covers at most 7 days of events. */
export const MAX_RESEND_WINDOW_MS = 7 * 24 * 3600 * 1000;

export interface ResendWebhookDeliveriesInput {
  tenantId: string;
  endpointId: string;
  /** Events created at or after this instant… */
  since: Date;
  /** …and before this one; default now. */
  until?: Date;
  /** Default true: only what did not arrive (FAILED, or DISABLED while the endpoint was off); false adds DELIVERED. */
  onlyFailed?: boolean;
  actor: Actor;
}

/**
 * Sends an endpoint's deliveries of the events created in [since, until) again (CONTRACT §18),
 * each with its original `webhook-id` (the event id) and body: every such delivery that is not
 * PENDING becomes PENDING, due now, its schedule restarted, with its `webhooks.deliver` job, all in
 * one transaction. A PENDING delivery is left alone (it is already on its schedule, or being sent
 * this very moment), so a resend never makes a second copy of an attempt in flight. 409 CONFLICT
 * while the endpoint is disabled (enable it first, as for a single retry); 400 VALIDATION_FAILED
 * for an empty, reversed or longer than 7-day window.
 */
export async function resendWebhookDeliveries(
  deps: Pick<ServiceDeps, "db" | "now" | "jobs">,
  input: ResendWebhookDeliveriesInput,
): Promise<{ queued: number }> {
  const now = deps.now();
  const until = input.until ?? now;
  if (input.since.getTime() >= until.getTime()) {
    throw new AppError("VALIDATION_FAILED", "since must be before until (default: now)", {
      details: { fields: [{ path: "since", message: "must be before until" }] },
    });
  }
  if (until.getTime() - input.since.getTime() > MAX_RESEND_WINDOW_MS) {
    throw new AppError("VALIDATION_FAILED", "the window from since to until is at most 7 days", {
      details: { fields: [{ path: "since", message: "at most 7 days before until" }] },
    });
  }
  const onlyFailed = input.onlyFailed ?? true;
  return deps.db.transaction(async (tx) => {
    const key = { tenantId: input.tenantId, endpointId: input.endpointId };
    // Locked: a concurrent disable or delete waits for this resend, or this resend sees it.
    const endpoint = await requireWebhookEndpoint(tx, { ...key, lock: true });
    if (endpoint.status !== "ENABLED") {
      throw new AppError("CONFLICT", "the webhook is disabled: enable it (PUT with enabled: true) before resending its deliveries", {
        details: { status: endpoint.status, disabledReason: endpoint.disabledReason },
      });
    }
    const reopened = await reopenWebhookDeliveriesInWindow(tx, {
      ...key,
      since: input.since,
      until,
      statuses: onlyFailed ? ["FAILED", "DISABLED"] : ["FAILED", "DISABLED", "DELIVERED"],
      at: now,
    });
    await deps.jobs.sendMany(
      tx,
      "webhooks.deliver",
      reopened.map((delivery) => ({ tenantId: input.tenantId, deliveryId: delivery.id })),
    );
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "webhook.deliveries_resent",
      target: { type: "webhook", id: endpoint.id },
      details: { since: input.since.toISOString(), until: until.toISOString(), onlyFailed, queued: reopened.length },
    });
    return { queued: reopened.length };
  });
}
