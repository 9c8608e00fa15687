import { rotateWebhookSecret } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { EXAMPLE } from "../../openapi-examples";
import { EXAMPLE_WEBHOOK, EXAMPLE_WEBHOOK_SECRET, webhookEndpointWithSecret, webhookIdParam } from "./schemas";

export const rotateWebhookSecretProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "administer",
    issuesSecret: true,
    openapi: {
      method: "POST",
      path: "/v1/webhooks/{webhookId}/rotate-secret",
      tags: ["webhooks"],
      summary: "Rotate a webhook endpoint's secret",
      description:
        "Issues a new signing secret, shown only in this answer. For the next 24 hours (`previousSecretExpiresAt`) " +
        "every delivery carries two `v1` signatures, one per secret, so the receiver can switch without losing a " +
        "delivery. Rotating again within those 24 hours retires the oldest secret at once.",
      protect: true,
    },
    errors: ["NOT_FOUND"],
    example: {
      input: { webhookId: EXAMPLE_WEBHOOK.id },
      output: {
        ...EXAMPLE_WEBHOOK,
        previousSecretExpiresAt: "2026-11-22T10:05:00.000Z",
        updatedAt: EXAMPLE.updatedAt,
        secret: EXAMPLE_WEBHOOK_SECRET,
      },
    },
  })
  .input(z.object({ webhookId: webhookIdParam }))
  .output(webhookEndpointWithSecret)
  .mutation(({ ctx, input }) =>
    rotateWebhookSecret(ctx.deps, { tenantId: ctx.auth.tenantId, endpointId: input.webhookId, actor: ctx.actor }),
  );
