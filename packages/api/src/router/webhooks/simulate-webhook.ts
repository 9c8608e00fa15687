import { simulateWebhookEvent, webhookEventTypeSchema } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_DELIVERY, EXAMPLE_WEBHOOK, webhookIdParam } from "./schemas";

export const simulateWebhookProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "administer",
    successStatus: 202,
    openapi: {
      method: "POST",
      path: "/v1/webhooks/{webhookId}/simulate",
      tags: ["webhooks"],
      summary: "Simulate an event",
      description:
        "Sends this endpoint (only, whatever its event filter) an event of any catalog `type` with sample data " +
        "generated from the type's schema and `data.simulated: true`, and answers 202 with its id (the `webhook-id`). " +
        "It is a real delivery: signed with every scheme of the endpoint, retried and listed like any event. An " +
        "unknown type is 400 `VALIDATION_FAILED`, a disabled endpoint 409 `CONFLICT`; in production the route does " +
        "not exist (404 `NOT_FOUND`): simulate against a sandbox deployment.",
      protect: true,
    },
    errors: ["NOT_FOUND", "CONFLICT"],
    example: {
      input: { webhookId: EXAMPLE_WEBHOOK.id, type: "transaction.status_changed" },
      output: { eventId: EXAMPLE_DELIVERY.eventId, webhookId: EXAMPLE_WEBHOOK.id, type: "transaction.status_changed" },
    },
  })
  .input(z.object({ webhookId: webhookIdParam, type: webhookEventTypeSchema }))
  .output(z.object({ eventId: z.uuid(), webhookId: z.uuid(), type: webhookEventTypeSchema }))
  .mutation(({ ctx, input }) =>
    simulateWebhookEvent(ctx.deps, { tenantId: ctx.auth.tenantId, endpointId: input.webhookId, type: input.type, actor: ctx.actor }),
  );
