import { getWebhookEndpoint } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_WEBHOOK, webhookEndpoint, webhookIdParam } from "./schemas";

export const getWebhookProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/webhooks/{webhookId}",
      tags: ["webhooks"],
      summary: "Get a webhook endpoint",
      description: "One endpoint of the tenant, without its secret; a deleted one or another tenant's is 404.",
      protect: true,
    },
    errors: ["NOT_FOUND"],
    example: { input: { webhookId: EXAMPLE_WEBHOOK.id }, output: EXAMPLE_WEBHOOK },
  })
  .input(z.object({ webhookId: webhookIdParam }))
  .output(webhookEndpoint)
  .query(({ ctx, input }) => getWebhookEndpoint(ctx.deps, { tenantId: ctx.auth.tenantId, endpointId: input.webhookId }));
