import { listWebhookDeliveryAttemptRows, listWebhookDeliveryRows, withinSnapshot, type WebhookDeliveryStatusValue } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { decodePageCursor, toPage, type PageInfo, type PageRequest } from "../pagination";
import { requireWebhookEndpoint } from "./require-webhook-endpoint";
import { toWebhookDeliveryRecord, type WebhookDeliveryRecord } from "./webhook-records";

/** An endpoint's deliveries, newest first, each with every attempt (404 for an unknown endpoint). */
export async function listWebhookDeliveries(
  deps: Pick<ServiceDeps, "db">,
  input: PageRequest & { tenantId: string; endpointId: string; status?: WebhookDeliveryStatusValue },
): Promise<{ deliveries: WebhookDeliveryRecord[]; page: PageInfo }> {
  // One snapshot: an attempt commits its row and the delivery's new state together, and a read
  // of the deliveries before that commit with their attempts after it would show the attempt
  // beside the state it replaced (e.g. the lease's time as the next attempt).
  const { items, page, attempts } = await withinSnapshot(deps.db, async (db) => {
    await requireWebhookEndpoint(db, input);
    const rows = await listWebhookDeliveryRows(db, {
      tenantId: input.tenantId,
      endpointId: input.endpointId,
      status: input.status,
      beforeId: decodePageCursor(input.cursor),
      limit: input.limit + 1,
    });
    const { items, page } = toPage(rows, input.limit);
    return {
      items,
      page,
      attempts: await listWebhookDeliveryAttemptRows(db, { tenantId: input.tenantId, deliveryIds: items.map((row) => row.id) }),
    };
  });
  return { deliveries: items.map((row) => toWebhookDeliveryRecord(row, attempts)), page };
}
