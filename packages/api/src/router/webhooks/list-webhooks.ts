import { listWebhookEndpoints } from "@qc/core";
import { z } from "zod";
import { pageInfo, pageQuery } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_LAST_PAGE } from "../../openapi-examples";
import { EXAMPLE_WEBHOOK, webhookEndpoint } from "./schemas";

export const listWebhooksProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/webhooks",
      tags: ["webhooks"],
      summary: "List webhook endpoints",
      description: "The tenant's webhook endpoints, newest first, without their secrets. Paginate with `cursor`.",
      protect: true,
    },
    example: { input: { limit: 50 }, output: { webhooks: [EXAMPLE_WEBHOOK], page: EXAMPLE_LAST_PAGE } },
  })
  .input(pageQuery)
  .output(z.object({ webhooks: z.array(webhookEndpoint), page: pageInfo }))
  .query(({ ctx, input }) => listWebhookEndpoints(ctx.deps, { tenantId: ctx.auth.tenantId, ...input }));
