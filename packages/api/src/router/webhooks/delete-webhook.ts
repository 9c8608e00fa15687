import { deleteWebhookEndpoint } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_WEBHOOK, webhookIdParam } from "./schemas";

export const deleteWebhookProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "administer",
    openapi: {
      method: "DELETE",
      path: "/v1/webhooks/{webhookId}",
      tags: ["webhooks"],
      summary: "Delete a webhook endpoint",
      description:
        "Unsubscribes the endpoint: nothing more is sent to it, its pending deliveries stop, and it is 404 from then " +
        "on (its delivery history is kept for the audit trail).",
      protect: true,
    },
    errors: ["NOT_FOUND"],
    example: { input: { webhookId: EXAMPLE_WEBHOOK.id }, output: { id: EXAMPLE_WEBHOOK.id, deleted: true } },
  })
  .input(z.object({ webhookId: webhookIdParam }))
  .output(z.object({ id: z.uuid(), deleted: z.literal(true) }))
  .mutation(({ ctx, input }) =>
    deleteWebhookEndpoint(ctx.deps, { tenantId: ctx.auth.tenantId, endpointId: input.webhookId, actor: ctx.actor }),
  );
