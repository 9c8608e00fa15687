import type { Transaction } from "@qc/db";
import { disableEnabledWebhookEndpoint, disablePendingWebhookDeliveries, listTenantAdminEmails } from "@qc/db/queries";
import { auditAction, systemActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { queueEmail } from "../email/queue-email";

const EXPLANATIONS = {
  GONE: "it answered 410 Gone, which says the endpoint no longer exists",
  FAILING: "it has failed every delivery for 5 days",
} as const;

/**
 * Disables an endpoint the service gave up on (CONTRACT §7: 410 Gone, or 5 days of failures),
 * in the caller's transaction: its pending deliveries stop, the change is audited and the
 * tenant's admins are emailed. Only the caller that moves it from ENABLED does any of this, so
 * concurrent deliveries failing together send one email.
 */
export async function disableFailingWebhookEndpoint(
  tx: Transaction,
  deps: Pick<ServiceDeps, "jobs" | "config">,
  input: { tenantId: string; endpointId: string; reason: keyof typeof EXPLANATIONS; at: Date },
): Promise<boolean> {
  const key = { tenantId: input.tenantId, endpointId: input.endpointId };
  const endpoint = await disableEnabledWebhookEndpoint(tx, { ...key, reason: input.reason, at: input.at });
  if (!endpoint) return false;
  const stopped = await disablePendingWebhookDeliveries(tx, { ...key, at: input.at });
  await auditAction(tx, systemActor("webhooks.deliver"), {
    tenantId: input.tenantId,
    action: "webhook.disabled",
    target: { type: "webhook", id: endpoint.id },
    details: { reason: input.reason, stoppedDeliveries: stopped },
  });
  const origin = new URL(endpoint.url).origin;
  for (const to of await listTenantAdminEmails(tx, input.tenantId)) {
    await queueEmail(tx, deps.jobs, {
      tenantId: input.tenantId,
      to,
      kind: "webhook_disabled",
      subject: `Webhook ${origin} was disabled`,
      text: [
        `Quantum Custody disabled your webhook endpoint ${origin} (id ${endpoint.id}) because ${EXPLANATIONS[input.reason]}.`,
        "No events are sent to it while it is disabled; its undelivered events are kept.",
        `Fix the receiver, then enable it again (PUT ${deps.config.publicUrl}/v1/webhooks/${endpoint.id} with {"enabled": true})`,
        "and resend what it missed with POST /v1/webhooks/deliveries/{id}/retry.",
      ].join("\n"),
    });
  }
  return true;
}
