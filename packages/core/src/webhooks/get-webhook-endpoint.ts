import type { ServiceDeps } from "../deps/service-deps";
import { requireWebhookEndpoint } from "./require-webhook-endpoint";
import { toWebhookEndpointRecord, type WebhookEndpointRecord } from "./webhook-records";

export async function getWebhookEndpoint(
  deps: Pick<ServiceDeps, "db">,
  input: { tenantId: string; endpointId: string },
): Promise<WebhookEndpointRecord> {
  return toWebhookEndpointRecord(await requireWebhookEndpoint(deps.db, input));
}
