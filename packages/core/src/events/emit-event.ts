import { schema, type Executor } from "@qc/db";

/** The event types of CONTRACT §7; webhook subscriptions filter on them. */
export type EventType =
  | "transaction.created"
  | "transaction.status_changed"
  | "wallet.created"
  | "vault.archived"
  | "credential.rotated"
  | "tenant.verification_changed"
  | "webhook.test";

/**
 * Appends a domain event to the outbox inside the caller's transaction, so an event exists if
 * and only if the change it reports committed. The webhooks dispatcher delivers from here.
 */
export async function emitEvent(tx: Executor, tenantId: string, type: EventType, data: Record<string, unknown>): Promise<string> {
  const [row] = await tx.insert(schema.eventOutbox).values({ tenantId, type, data }).returning({ id: schema.eventOutbox.id });
  return row!.id;
}
