import { resendWebhookDeliveries } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_WEBHOOK, webhookIdParam } from "./schemas";

const instant = z.iso.datetime({ offset: true });

export const resendWebhookProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "administer",
    successStatus: 202,
    openapi: {
      method: "POST",
      path: "/v1/webhooks/{webhookId}/resend",
      tags: ["webhooks"],
      summary: "Resend a window of events",
      description:
        "Sends this endpoint's deliveries of the events created from `since` up to `until` (default now; at most 7 " +
        "days, `since` before `until`, else 400 `VALIDATION_FAILED`) again, each with its original `webhook-id` and " +
        "body, and answers 202 with how many were queued. `onlyFailed` (default true) resends what did not arrive " +
        "(`FAILED`, or `DISABLED` while the endpoint was off); false resends delivered ones too. A delivery still " +
        "`PENDING` is on its schedule (or being sent) and is not sent twice. A disabled endpoint is 409 `CONFLICT`: " +
        "enable it first. Typical use: after a receiver outage, resend the hours it was down.",
      protect: true,
    },
    errors: ["NOT_FOUND", "CONFLICT"],
    example: {
      input: { webhookId: EXAMPLE_WEBHOOK.id, since: "2026-11-21T08:00:00.000Z", until: "2026-11-21T10:00:00.000Z", onlyFailed: true },
      output: { queued: 12 },
    },
  })
  .input(
    z.object({
      webhookId: webhookIdParam,
      since: instant.meta({ description: "events created at or after this instant (RFC 3339)", example: "2026-11-21T08:00:00.000Z" }),
      until: instant.optional().meta({ description: "events created before this instant; default now; at most 7 days after `since`" }),
      onlyFailed: z.boolean().optional().meta({ description: "default true: only deliveries that did not arrive" }),
    }),
  )
  .output(z.object({ queued: z.number().int().meta({ description: "deliveries queued again" }) }))
  .mutation(({ ctx, input }) =>
    resendWebhookDeliveries(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      endpointId: input.webhookId,
      since: new Date(input.since),
      ...(input.until !== undefined ? { until: new Date(input.until) } : {}),
      ...(input.onlyFailed !== undefined ? { onlyFailed: input.onlyFailed } : {}),
      actor: ctx.actor,
    }),
  );
