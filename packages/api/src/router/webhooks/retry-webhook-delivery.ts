import { retryWebhookDelivery } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { deliveryIdParam, EXAMPLE_DELIVERY, webhookDelivery } from "./schemas";

export const retryWebhookDeliveryProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "administer",
    successStatus: 202,
    openapi: {
      method: "POST",
      path: "/v1/webhooks/deliveries/{deliveryId}/retry",
      tags: ["webhooks"],
      summary: "Send a delivery again",
      description:
        "Sends a finished delivery (`FAILED`, `DISABLED`, or `DELIVERED` and wanted again) once more, at once, with " +
        "the same `webhook-id` and body, and restarts its retry schedule; answers 202 with the delivery, now " +
        "`PENDING`. A delivery still pending, or one whose endpoint is disabled, is 409 `CONFLICT`.",
      protect: true,
    },
    errors: ["NOT_FOUND", "CONFLICT"],
    example: {
      input: { deliveryId: EXAMPLE_DELIVERY.id },
      output: {
        ...EXAMPLE_DELIVERY,
        status: "PENDING",
        attemptCount: 0,
        nextAttemptAt: "2026-11-21T10:05:00.000Z",
        deliveredAt: null,
        updatedAt: "2026-11-21T10:05:00.000Z",
      },
    },
  })
  .input(z.object({ deliveryId: deliveryIdParam }))
  .output(webhookDelivery)
  .mutation(({ ctx, input }) =>
    retryWebhookDelivery(ctx.deps, { tenantId: ctx.auth.tenantId, deliveryId: input.deliveryId, actor: ctx.actor }),
  );
