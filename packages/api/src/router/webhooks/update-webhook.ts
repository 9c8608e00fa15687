import { AppError, updateWebhookEndpoint } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { EXAMPLE } from "../../openapi-examples";
import {
  EXAMPLE_WEBHOOK,
  webhookDescription,
  webhookEndpoint,
  webhookEvents,
  webhookIdParam,
  webhookSignatureSchemes,
  webhookUrl,
} from "./schemas";

export const updateWebhookProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "administer",
    openapi: {
      method: "PUT",
      path: "/v1/webhooks/{webhookId}",
      tags: ["webhooks"],
      summary: "Change a webhook endpoint",
      description:
        "Sets any of `url` (checked as on creation), `events` (replaces the list; empty: every type), `description` " +
        "(null clears it) and `enabled`; a field left out is unchanged. `enabled: false` disables the endpoint and " +
        "stops its pending deliveries; `enabled: true` re-enables an endpoint disabled by you, by a 410 answer or " +
        "after 5 days of failures (resend what it missed with `POST /v1/webhooks/{webhookId}/resend`). " +
        "`signatureSchemes` replaces the list: adding `v1a` makes the endpoint's Ed25519 key pair (its `publicKey` is " +
        "in the answer), removing it destroys the pair.",
      protect: true,
    },
    errors: ["NOT_FOUND"],
    example: {
      input: { webhookId: EXAMPLE_WEBHOOK.id, events: ["transaction.status_changed"], enabled: true },
      output: { ...EXAMPLE_WEBHOOK, events: ["transaction.status_changed"], updatedAt: EXAMPLE.updatedAt },
    },
  })
  .input(
    z.object({
      webhookId: webhookIdParam,
      url: webhookUrl.optional(),
      events: webhookEvents.optional(),
      description: webhookDescription.nullable().optional(),
      enabled: z.boolean().optional(),
      signatureSchemes: webhookSignatureSchemes.optional(),
    }),
  )
  .output(webhookEndpoint)
  .mutation(({ ctx, input }) => {
    const { webhookId, ...changes } = input;
    if (Object.values(changes).every((value) => value === undefined)) {
      throw new AppError("VALIDATION_FAILED", "nothing to change: give url, events, description, enabled or signatureSchemes", {
        details: { fields: [{ path: "", message: "at least one of url, events, description, enabled, signatureSchemes is required" }] },
      });
    }
    return updateWebhookEndpoint(ctx.deps, { tenantId: ctx.auth.tenantId, endpointId: webhookId, ...changes, actor: ctx.actor });
  });
