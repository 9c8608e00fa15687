import { createWebhookEndpoint } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import {
  EXAMPLE_WEBHOOK,
  EXAMPLE_WEBHOOK_SECRET,
  webhookDescription,
  webhookEndpointWithSecret,
  webhookEvents,
  webhookSignatureSchemes,
  webhookUrl,
} from "./schemas";

export const createWebhookProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "administer",
    issuesSecret: true,
    successStatus: 201,
    openapi: {
      method: "POST",
      path: "/v1/webhooks",
      tags: ["webhooks"],
      summary: "Subscribe a webhook endpoint",
      description:
        "Registers an HTTPS endpoint for the listed event types (omitted or empty: every type) and answers 201 with " +
        "its signing `secret` (`whsec_` + base64 of 32 bytes), shown only in this answer and stored encrypted. The URL " +
        "must be `https`, without credentials, and its host must resolve to public addresses only; it is checked now " +
        "and again before every delivery (400 `VALIDATION_FAILED` naming the reason otherwise). Deliveries follow " +
        "Standard Webhooks; see the webhooks guide for verification, retries and the event catalog. " +
        '`signatureSchemes` (default `["v1"]`) adds `v1a`: each delivery is also signed with the endpoint\'s own Ed25519 ' +
        "key, whose public key (`publicKey`, `whpk_…`) verifies it without a shared secret; the private key never leaves " +
        "the service.",
      protect: true,
    },
    example: {
      input: {
        url: EXAMPLE_WEBHOOK.url,
        events: EXAMPLE_WEBHOOK.events,
        description: EXAMPLE_WEBHOOK.description,
        signatureSchemes: EXAMPLE_WEBHOOK.signatureSchemes,
      },
      output: { ...EXAMPLE_WEBHOOK, secret: EXAMPLE_WEBHOOK_SECRET },
    },
  })
  .input(
    z.object({
      url: webhookUrl,
      events: webhookEvents.optional(),
      description: webhookDescription.optional(),
      signatureSchemes: webhookSignatureSchemes.optional(),
    }),
  )
  .output(webhookEndpointWithSecret)
  .mutation(({ ctx, input }) => createWebhookEndpoint(ctx.deps, { tenantId: ctx.auth.tenantId, ...input, actor: ctx.actor }));
