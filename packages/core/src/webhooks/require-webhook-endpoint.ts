import type { Executor } from "@qc/db";
import { findWebhookEndpoint, type WebhookEndpointRow } from "@qc/db/queries";
import { AppError } from "../errors";

/**
 * The tenant's endpoint, or 404 NOT_FOUND (also for a deleted one and for another tenant's id:
 * no existence leak). `lock` holds the row against concurrent changes until commit.
 */
export async function requireWebhookEndpoint(
  db: Executor,
  input: { tenantId: string; endpointId: string; lock?: boolean },
): Promise<WebhookEndpointRow> {
  const row = await findWebhookEndpoint(db, input);
  if (!row) throw new AppError("NOT_FOUND", "webhook not found");
  return row;
}
