import { listWebhookDeliveries } from "@qc/core";
import { WEBHOOK_DELIVERY_STATUSES } from "@qc/domain";
import { z } from "zod";
import { EXAMPLE_LAST_PAGE } from "../../openapi-examples";
import { pageInfo, pageQuery } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_DELIVERY, EXAMPLE_WEBHOOK, webhookDelivery, webhookIdParam } from "./schemas";

export const listWebhookDeliveriesProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/webhooks/{webhookId}/deliveries",
      tags: ["webhooks"],
      summary: "List an endpoint's deliveries",
      description:
        "The endpoint's deliveries, newest first, optionally of one `status`, each with every attempt: when, the HTTP " +
        "status, how long it took, the first 4 KB of the answer and the error. A `PENDING` delivery's `nextAttemptAt` " +
        "is when it is tried next.",
      protect: true,
    },
    errors: ["NOT_FOUND"],
    example: { input: { webhookId: EXAMPLE_WEBHOOK.id, limit: 50 }, output: { deliveries: [EXAMPLE_DELIVERY], page: EXAMPLE_LAST_PAGE } },
  })
  .input(pageQuery.extend({ webhookId: webhookIdParam, status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional() }))
  .output(z.object({ deliveries: z.array(webhookDelivery), page: pageInfo }))
  .query(({ ctx, input }) => {
    const { webhookId, ...page } = input;
    return listWebhookDeliveries(ctx.deps, { tenantId: ctx.auth.tenantId, endpointId: webhookId, ...page });
  });
