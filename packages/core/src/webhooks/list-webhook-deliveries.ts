import { listWebhookDeliveryAttemptRows, listWebhookDeliveryRows, type WebhookDeliveryStatusValue } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { decodePageCursor, toPage, type PageInfo, type PageRequest } from "../pagination";
import { requireWebhookEndpoint } from "./require-webhook-endpoint";
import { toWebhookDeliveryRecord, type WebhookDeliveryRecord } from "./webhook-records";

/** An endpoint's deliveries, newest first, each with every attempt (404 for an unknown endpoint). */
export async function listWebhookDeliveries(
  deps: Pick<ServiceDeps, "db">,
  input: PageRequest & { tenantId: string; endpointId: string; status?: WebhookDeliveryStatusValue },
): Promise<{ deliveries: WebhookDeliveryRecord[]; page: PageInfo }> {
  await requireWebhookEndpoint(deps.db, input);
  const rows = await listWebhookDeliveryRows(deps.db, {
    tenantId: input.tenantId,
    endpointId: input.endpointId,
    status: input.status,
    beforeId: decodePageCursor(input.cursor),
    limit: input.limit + 1,
  });
  const { items, page } = toPage(rows, input.limit);
  const attempts = await listWebhookDeliveryAttemptRows(deps.db, { tenantId: input.tenantId, deliveryIds: items.map((row) => row.id) });
  return { deliveries: items.map((row) => toWebhookDeliveryRecord(row, attempts)), page };
}
