import { listWebhookEndpointRows } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { decodePageCursor, toPage, type PageInfo, type PageRequest } from "../pagination";
import { toWebhookEndpointRecord, type WebhookEndpointRecord } from "./webhook-records";

/** The tenant's endpoints, newest first, without their secrets. */
export async function listWebhookEndpoints(
  deps: Pick<ServiceDeps, "db">,
  input: PageRequest & { tenantId: string },
): Promise<{ webhooks: WebhookEndpointRecord[]; page: PageInfo }> {
  const rows = await listWebhookEndpointRows(deps.db, {
    tenantId: input.tenantId,
    beforeId: decodePageCursor(input.cursor),
    limit: input.limit + 1,
  });
  const { items, page } = toPage(rows, input.limit);
  return { webhooks: items.map(toWebhookEndpointRecord), page };
}
