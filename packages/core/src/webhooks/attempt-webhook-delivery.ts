import {
  closePendingWebhookDelivery,
  findOutboxEvent,
  findWebhookEndpoint,
  insertWebhookDeliveryAttempt,
  leaseDueWebhookDelivery,
  markWebhookEndpointFailing,
  markWebhookEndpointHealthy,
  settleLeasedWebhookDelivery,
  type WebhookDeliveryStatusValue,
} from "@qc/db/queries";
import { deliverWebhook, nextAttemptAt, shouldDisableFailingEndpoint, type DeliveryOutcome } from "@qc/webhooks";
import type { ServiceDeps } from "../deps/service-deps";
import { disableFailingWebhookEndpoint } from "./disable-failing-webhook-endpoint";
import { webhookPayload } from "./webhook-payload";
import { endpointSigningKeys, endpointSigningSecrets, webhookSecretBox } from "./webhook-secrets";

/**
 * A job may run a little before its delivery is due by this process's clock (pg-boss starts it
 * by the database's clock): that much early still counts as due.
 */
const DUE_TOLERANCE_MS = 1_000;
/** The lease covers the attempt (bounded by the delivery timeout) plus the database work around it. */
const LEASE_MARGIN_MS = 5_000;

export type AttemptWebhookDeliveryResult =
  | { attempted: false; reason: "not-due-or-not-pending" | "endpoint-unavailable" | "event-missing" }
  | {
      attempted: true;
      outcome: DeliveryOutcome;
      status: WebhookDeliveryStatusValue;
      statusCode: number | null;
      nextAttemptAt: Date | null;
      superseded: boolean;
    };

/**
 * One attempt of one delivery: the `webhooks.deliver` job. Takes the delivery only if it is
 * PENDING and due, leasing it for the attempt so that no other worker sends it at the same time;
 * vets the URL again (DNS may have changed), signs the event's exact bytes with every scheme the
 * endpoint lists (`v1` secrets, `v1a` keys: current, and previous during a rotation), sends, records the attempt, and moves on:
 * DELIVERED; PENDING with the next attempt on the schedule (and its job, due then); FAILED once
 * the schedule is spent or the answer is final; DISABLED with the endpoint on 410. An endpoint
 * without a success for 5 days is disabled and its admins emailed.
 *
 * A worker that dies mid-attempt leaves its lease to run out; the delivery is then attempted
 * again (same `webhook-id`) by the job's retry or the sweeper. Every clock reading is
 * `deps.now()`, so tests drive the schedule.
 */
export async function attemptWebhookDelivery(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "config" | "log">,
  input: { tenantId: string; deliveryId: string },
): Promise<AttemptWebhookDeliveryResult> {
  const config = deps.config.webhooks;
  const startedAt = deps.now();
  const leaseUntil = new Date(startedAt.getTime() + config.deliveryTimeoutMs + LEASE_MARGIN_MS);
  const key = { tenantId: input.tenantId, deliveryId: input.deliveryId };
  const delivery = await leaseDueWebhookDelivery(deps.db, {
    ...key,
    dueBy: new Date(startedAt.getTime() + DUE_TOLERANCE_MS),
    leaseUntil,
    at: startedAt,
  });
  if (!delivery) return { attempted: false, reason: "not-due-or-not-pending" };

  const [endpoint, event] = await Promise.all([
    findWebhookEndpoint(deps.db, { tenantId: input.tenantId, endpointId: delivery.endpointId }),
    findOutboxEvent(deps.db, { tenantId: input.tenantId, eventId: delivery.eventId }),
  ]);
  if (!endpoint || endpoint.status !== "ENABLED") {
    await closePendingWebhookDelivery(deps.db, {
      ...key,
      status: "DISABLED",
      error: endpoint ? "the webhook is disabled" : "the webhook was deleted",
      at: startedAt,
    });
    return { attempted: false, reason: "endpoint-unavailable" };
  }
  if (!event) {
    await closePendingWebhookDelivery(deps.db, { ...key, status: "FAILED", error: "the event is no longer in the outbox", at: startedAt });
    return { attempted: false, reason: "event-missing" };
  }

  const result = await deliverWebhook({
    url: endpoint.url,
    id: event.id,
    body: webhookPayload(event),
    secrets: endpointSigningSecrets(webhookSecretBox(config), endpoint, startedAt),
    signingKeys: endpointSigningKeys(webhookSecretBox(config), endpoint, startedAt),
    timeoutMs: config.deliveryTimeoutMs,
    allowPrivate: config.allowPrivateUrls,
    ...(config.trustedCertificates ? { trustedCertificates: config.trustedCertificates } : {}),
    now: deps.now,
  });
  const finishedAt = deps.now();
  const attemptsMade = delivery.attemptCount + 1;
  const next =
    result.outcome === "retry" ? nextAttemptAt({ attemptsMade, now: finishedAt, retryAfterSeconds: result.retryAfterSeconds }) : null;
  const status: WebhookDeliveryStatusValue =
    result.outcome === "delivered" ? "DELIVERED" : result.outcome === "disable" ? "DISABLED" : next ? "PENDING" : "FAILED";

  return deps.db.transaction(async (tx) => {
    await insertWebhookDeliveryAttempt(tx, {
      tenantId: input.tenantId,
      deliveryId: delivery.id,
      attemptedAt: startedAt,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      responseExcerpt: result.responseExcerpt,
      error: result.error,
    });
    const settled = await settleLeasedWebhookDelivery(
      tx,
      { ...key, leaseUntil },
      {
        status,
        nextAttemptAt: next,
        lastStatusCode: result.statusCode,
        lastError: result.error,
        deliveredAt: status === "DELIVERED" ? finishedAt : null,
        updatedAt: finishedAt,
      },
    );
    if (!settled) {
      // The lease ran out mid-attempt and another worker took the delivery over: the attempt is
      // on record, the state is the other worker's to write.
      deps.log.warn({ deliveryId: delivery.id }, "webhook attempt outlived its lease; its outcome was recorded but not applied");
      return { attempted: true, outcome: result.outcome, status, statusCode: result.statusCode, nextAttemptAt: next, superseded: true };
    }
    if (next) await deps.jobs.send(tx, "webhooks.deliver", { tenantId: input.tenantId, deliveryId: delivery.id }, { startAfter: next });

    const endpointKey = { tenantId: input.tenantId, endpointId: endpoint.id };
    if (result.outcome === "delivered") {
      // A healthy endpoint (the usual case) costs no write.
      if (endpoint.failingSince) await markWebhookEndpointHealthy(tx, endpointKey);
    } else if (result.outcome === "disable") {
      await disableFailingWebhookEndpoint(tx, deps, { ...endpointKey, reason: "GONE", at: finishedAt });
    } else {
      const failingSince = await markWebhookEndpointFailing(tx, { ...endpointKey, at: startedAt });
      if (failingSince && shouldDisableFailingEndpoint(failingSince, finishedAt)) {
        await disableFailingWebhookEndpoint(tx, deps, { ...endpointKey, reason: "FAILING", at: finishedAt });
      }
    }
    return { attempted: true, outcome: result.outcome, status, statusCode: result.statusCode, nextAttemptAt: next, superseded: false };
  });
}
