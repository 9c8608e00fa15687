import { sendTestWebhook } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_DELIVERY, EXAMPLE_WEBHOOK, webhookIdParam } from "./schemas";

export const testWebhookProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "administer",
    successStatus: 202,
    openapi: {
      method: "POST",
      path: "/v1/webhooks/{webhookId}/test",
      tags: ["webhooks"],
      summary: "Send a test event",
      description:
        "Emits a `webhook.test` event for this endpoint only (whatever its event filter) and answers 202 with the " +
        "event id, which arrives as `webhook-id`. It is delivered, signed and retried like any event and listed among " +
        "the endpoint's deliveries. A disabled endpoint is 409 `CONFLICT`.",
      protect: true,
    },
    errors: ["NOT_FOUND", "CONFLICT"],
    example: {
      input: { webhookId: EXAMPLE_WEBHOOK.id },
      output: { eventId: EXAMPLE_DELIVERY.eventId, webhookId: EXAMPLE_WEBHOOK.id, type: "webhook.test" },
    },
  })
  .input(z.object({ webhookId: webhookIdParam }))
  .output(z.object({ eventId: z.uuid(), webhookId: z.uuid(), type: z.literal("webhook.test") }))
  .mutation(({ ctx, input }) => sendTestWebhook(ctx.deps, { tenantId: ctx.auth.tenantId, endpointId: input.webhookId, actor: ctx.actor }));
