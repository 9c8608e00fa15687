import { attemptWebhookDelivery, type ParsedJobPayload } from "@qc/core";
import type { JobContext } from "../context";

/**
 * Job `webhooks.deliver`: one attempt of one delivery. Nothing to do when the delivery is no
 * longer pending or not yet due (a spare job, or one whose delivery another worker holds); the
 * next attempt, if any, is enqueued by the attempt itself.
 */
export async function deliverWebhookJob(payload: ParsedJobPayload<"webhooks.deliver">, ctx: JobContext) {
  const result = await attemptWebhookDelivery(ctx, payload);
  if (result.attempted) {
    ctx.log.info(
      {
        tenantId: payload.tenantId,
        deliveryId: payload.deliveryId,
        outcome: result.outcome,
        status: result.status,
        statusCode: result.statusCode,
        nextAttemptAt: result.nextAttemptAt,
      },
      "webhook delivery attempted",
    );
    return { outcome: result.outcome, status: result.status, statusCode: result.statusCode };
  }
  return { skipped: result.reason };
}
