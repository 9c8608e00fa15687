import { and, desc, eq, gte, inArray, isNotNull, isNull, lt, lte, sql } from "drizzle-orm";
import { newRowId } from "../ids";
import { defineQuery } from "../hot-path/define-query";
import type { Executor } from "../client";
import { listVerifiedAdminEmails } from "./identity";
import { eventOutbox } from "../schema/system";
import { webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from "../schema/webhooks";

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type NewWebhookEndpointRow = typeof webhookEndpoints.$inferInsert;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookDeliveryStatusValue = WebhookDeliveryRow["status"];
export type WebhookDeliveryAttemptRow = typeof webhookDeliveryAttempts.$inferSelect;
export type OutboxEventRow = typeof eventOutbox.$inferSelect;

/** The channel sql/030_event_outbox_notify.sql notifies on every insert into event_outbox. */
export const OUTBOX_NOTIFY_CHANNEL = "qc_event_outbox";

/**
 * An endpoint's id before its row exists: the sealed secret's associated data names the row,
 * so the id is needed to seal it.
 */
export const newWebhookEndpointId = (): string => newRowId();

export interface WebhookEndpointKey {
  tenantId: string;
  endpointId: string;
}

const endpointKey = (key: WebhookEndpointKey) =>
  and(eq(webhookEndpoints.id, key.endpointId), eq(webhookEndpoints.tenantId, key.tenantId), isNull(webhookEndpoints.deletedAt));

export async function insertWebhookEndpoint(db: Executor, row: NewWebhookEndpointRow & { id: string }): Promise<WebhookEndpointRow> {
  const [inserted] = await db.insert(webhookEndpoints).values(row).returning();
  return inserted!;
}

/** The tenant's endpoint unless deleted; undefined also for another tenant's id. `lock` holds it until commit. */
export async function findWebhookEndpoint(
  db: Executor,
  key: WebhookEndpointKey & { lock?: boolean },
): Promise<WebhookEndpointRow | undefined> {
  const query = db.select().from(webhookEndpoints).where(endpointKey(key));
  const [row] = key.lock ? await query.for("update") : await query;
  return row;
}

/** One page of the tenant's endpoints (not deleted), newest first: ids below `beforeId`. */
export function listWebhookEndpointRows(
  db: Executor,
  params: { tenantId: string; beforeId?: string | undefined; limit: number },
): Promise<WebhookEndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.tenantId, params.tenantId),
        isNull(webhookEndpoints.deletedAt),
        params.beforeId ? lt(webhookEndpoints.id, params.beforeId) : undefined,
      ),
    )
    .orderBy(desc(webhookEndpoints.id))
    .limit(params.limit);
}

/** Sets columns of the tenant's endpoint unless it is deleted; undefined when there is none. */
export async function updateWebhookEndpoint(
  db: Executor,
  key: WebhookEndpointKey,
  set: Partial<NewWebhookEndpointRow>,
): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db.update(webhookEndpoints).set(set).where(endpointKey(key)).returning();
  return row;
}

/**
 * ENABLED → DISABLED with its reason; undefined when it was not enabled (already disabled,
 * deleted or unknown), so only one caller disables it and writes what follows (audit, email).
 */
export async function disableEnabledWebhookEndpoint(
  db: Executor,
  key: WebhookEndpointKey & { reason: string; at: Date },
): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ status: "DISABLED", disabledReason: key.reason, disabledAt: key.at, updatedAt: key.at })
    .where(and(endpointKey(key), eq(webhookEndpoints.status, "ENABLED")))
    .returning();
  return row;
}

/**
 * Records a failed attempt against the endpoint's health: `failing_since` keeps the first
 * failure since the last success. Returns it (undefined when the endpoint is gone).
 */
export async function markWebhookEndpointFailing(db: Executor, key: WebhookEndpointKey & { at: Date }): Promise<Date | null | undefined> {
  const [row] = await db
    .update(webhookEndpoints)
    .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${key.at.toISOString()}::timestamptz)` })
    .where(endpointKey(key))
    .returning({ failingSince: webhookEndpoints.failingSince });
  return row?.failingSince;
}

/** A success ends a failing streak; touches the row only when one was recorded. */
export async function markWebhookEndpointHealthy(db: Executor, key: WebhookEndpointKey): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set({ failingSince: null })
    .where(
      and(eq(webhookEndpoints.id, key.endpointId), eq(webhookEndpoints.tenantId, key.tenantId), isNotNull(webhookEndpoints.failingSince)),
    );
}

/** The email addresses of the tenant's verified admins (for "endpoint disabled" notices). */
export async function listTenantAdminEmails(db: Executor, tenantId: string): Promise<string[]> {
  return (await listVerifiedAdminEmails(db, { tenantId })).map((row) => row.email);
}

// ---------------------------------------------------------------------------------------------
// Fan-out: outbox rows → delivery rows.

/**
 * Undispatched events, oldest first, locked for the caller's transaction. SKIP LOCKED lets
 * several daemons drain the outbox at once, each taking rows the others do not hold.
 */
export function claimUndispatchedOutboxEvents(tx: Executor, limit: number): Promise<OutboxEventRow[]> {
  // The dispatcher's poll, several times a second per daemon: prepared (../hot-path).
  return claimOutboxEventsQuery.on(tx).execute({ limit });
}
const claimOutboxEventsQuery = defineQuery("qc_claim_outbox_events", (db) =>
  db
    .select()
    .from(eventOutbox)
    .where(isNull(eventOutbox.dispatchedAt))
    .orderBy(eventOutbox.seq)
    .limit(sql.placeholder("limit"))
    .for("update", { skipLocked: true }),
);

export async function markOutboxEventsDispatched(tx: Executor, params: { seqs: bigint[]; at: Date }): Promise<void> {
  if (params.seqs.length === 0) return;
  // One statement text for any number of events (an array parameter, not an IN list of as many
  // parameters), so it is prepared once per connection instead of planned for every batch size.
  await markOutboxEventsDispatchedQuery.on(tx).execute({ at: params.at.toISOString(), seqs: params.seqs.map(String) });
}
const markOutboxEventsDispatchedQuery = defineQuery("qc_mark_outbox_events_dispatched", (db) =>
  db
    .update(eventOutbox)
    .set({ dispatchedAt: sql`${sql.placeholder("at")}::timestamptz` })
    .where(sql`${eventOutbox.seq} = any(${sql.placeholder("seqs")}::bigint[])`),
);

export interface FanOutEndpoint {
  id: string;
  tenantId: string;
  eventTypes: string[];
}

/** The enabled, not deleted endpoints of these tenants: what one batch of events can fan out to. */
export function listEnabledWebhookEndpoints(tx: Executor, tenantIds: string[]): Promise<FanOutEndpoint[]> {
  if (tenantIds.length === 0) return Promise.resolve([]);
  // Every fan-out pass: one prepared text whatever the number of tenants (an array parameter).
  return listEnabledWebhookEndpointsQuery.on(tx).execute({ tenantIds });
}
const listEnabledWebhookEndpointsQuery = defineQuery("qc_list_enabled_webhook_endpoints", (db) =>
  db
    .select({ id: webhookEndpoints.id, tenantId: webhookEndpoints.tenantId, eventTypes: webhookEndpoints.eventTypes })
    .from(webhookEndpoints)
    .where(
      and(
        sql`${webhookEndpoints.tenantId} = any(${sql.placeholder("tenantIds")}::uuid[])`,
        eq(webhookEndpoints.status, "ENABLED"),
        isNull(webhookEndpoints.deletedAt),
      ),
    ),
);

/**
 * One delivery per (endpoint, event); a pair that already has one is skipped (the unique index),
 * so fanning out an event again creates nothing. Returns only the rows created by this call.
 */
export async function insertWebhookDeliveries(
  tx: Executor,
  rows: { tenantId: string; endpointId: string; eventId: string; eventType: string; nextAttemptAt: Date; createdAt: Date }[],
): Promise<{ id: string; tenantId: string }[]> {
  if (rows.length === 0) return [];
  return tx
    .insert(webhookDeliveries)
    .values(rows.map((row) => ({ ...row, updatedAt: row.createdAt })))
    .onConflictDoNothing({ target: [webhookDeliveries.endpointId, webhookDeliveries.eventId] })
    .returning({ id: webhookDeliveries.id, tenantId: webhookDeliveries.tenantId });
}

/** The tenant's outbox event by its id (the webhook-id). */
export async function findOutboxEvent(db: Executor, params: { tenantId: string; eventId: string }): Promise<OutboxEventRow | undefined> {
  const [row] = await db
    .select()
    .from(eventOutbox)
    .where(and(eq(eventOutbox.id, params.eventId), eq(eventOutbox.tenantId, params.tenantId)));
  return row;
}

// ---------------------------------------------------------------------------------------------
// Deliveries.

export interface WebhookDeliveryKey {
  tenantId: string;
  deliveryId: string;
}

const deliveryKey = (key: WebhookDeliveryKey) =>
  and(eq(webhookDeliveries.id, key.deliveryId), eq(webhookDeliveries.tenantId, key.tenantId));

export async function findWebhookDelivery(db: Executor, key: WebhookDeliveryKey): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await db.select().from(webhookDeliveries).where(deliveryKey(key));
  return row;
}

/**
 * Takes a PENDING delivery whose attempt is due by `dueBy` and leases it until `leaseUntil`
 * (stored as its next attempt time): another job or the sweeper sees it as not due until the
 * lease runs out, and a worker that died mid-attempt leaves a lease that simply expires.
 */
export async function leaseDueWebhookDelivery(
  db: Executor,
  key: WebhookDeliveryKey & { dueBy: Date; leaseUntil: Date; at: Date },
): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: key.leaseUntil, updatedAt: key.at })
    .where(and(deliveryKey(key), eq(webhookDeliveries.status, "PENDING"), lte(webhookDeliveries.nextAttemptAt, key.dueBy)))
    .returning();
  return row;
}

/**
 * Writes an attempt's outcome only while the writer still holds its lease (the delivery is
 * PENDING with the lease time it set); undefined otherwise: the lease ran out and another
 * worker took the delivery over, so the state is theirs to write.
 */
export async function settleLeasedWebhookDelivery(
  db: Executor,
  key: WebhookDeliveryKey & { leaseUntil: Date },
  set: {
    status: WebhookDeliveryStatusValue;
    nextAttemptAt: Date | null;
    lastStatusCode: number | null;
    lastError: string | null;
    deliveredAt: Date | null;
    updatedAt: Date;
  },
): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ ...set, attemptCount: sql`${webhookDeliveries.attemptCount} + 1` })
    .where(and(deliveryKey(key), eq(webhookDeliveries.status, "PENDING"), eq(webhookDeliveries.nextAttemptAt, key.leaseUntil)))
    .returning();
  return row;
}

/** PENDING → `status` without an attempt (the endpoint was disabled or deleted meanwhile). */
export async function closePendingWebhookDelivery(
  db: Executor,
  key: WebhookDeliveryKey & { status: "DISABLED" | "FAILED"; error: string; at: Date },
): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: key.status, nextAttemptAt: null, lastError: key.error, updatedAt: key.at })
    .where(and(deliveryKey(key), eq(webhookDeliveries.status, "PENDING")))
    .returning();
  return row;
}

/** Every PENDING delivery of an endpoint → DISABLED (the endpoint was disabled or deleted). */
export async function disablePendingWebhookDeliveries(db: Executor, key: WebhookEndpointKey & { at: Date }): Promise<number> {
  const rows = await db
    .update(webhookDeliveries)
    .set({ status: "DISABLED", nextAttemptAt: null, updatedAt: key.at })
    .where(
      and(
        eq(webhookDeliveries.tenantId, key.tenantId),
        eq(webhookDeliveries.endpointId, key.endpointId),
        eq(webhookDeliveries.status, "PENDING"),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length;
}

/**
 * A finished delivery (DELIVERED, FAILED, DISABLED) → PENDING, due at `at`, its schedule
 * restarted; undefined when it is still PENDING (or unknown).
 */
export async function reopenWebhookDelivery(db: Executor, key: WebhookDeliveryKey & { at: Date }): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: "PENDING", attemptCount: 0, nextAttemptAt: key.at, deliveredAt: null, updatedAt: key.at })
    .where(and(deliveryKey(key), inArray(webhookDeliveries.status, ["DELIVERED", "FAILED", "DISABLED"])))
    .returning();
  return row;
}

/**
 * Resend (CONTRACT §18): the endpoint's deliveries of events created in [since, until) whose
 * status is one of `statuses` → PENDING, due at `at`, their schedule restarted; returns the rows
 * reopened. One conditional UPDATE: a PENDING delivery (on its schedule, or leased by a worker
 * sending it right now) is never among `statuses`, so it is neither reopened nor sent twice, and of
 * two resends racing for a row only one reopens it.
 */
export function reopenWebhookDeliveriesInWindow(
  db: Executor,
  params: WebhookEndpointKey & {
    since: Date;
    until: Date;
    statuses: Exclude<WebhookDeliveryStatusValue, "PENDING">[];
    at: Date;
  },
): Promise<{ id: string; eventId: string }[]> {
  return db
    .update(webhookDeliveries)
    .set({ status: "PENDING", attemptCount: 0, nextAttemptAt: params.at, deliveredAt: null, updatedAt: params.at })
    .from(eventOutbox)
    .where(
      and(
        eq(webhookDeliveries.tenantId, params.tenantId),
        eq(webhookDeliveries.endpointId, params.endpointId),
        inArray(webhookDeliveries.status, params.statuses),
        eq(eventOutbox.id, webhookDeliveries.eventId),
        eq(eventOutbox.tenantId, webhookDeliveries.tenantId),
        gte(eventOutbox.createdAt, params.since),
        lt(eventOutbox.createdAt, params.until),
      ),
    )
    .returning({ id: webhookDeliveries.id, eventId: webhookDeliveries.eventId });
}

export async function insertWebhookDeliveryAttempt(db: Executor, row: typeof webhookDeliveryAttempts.$inferInsert): Promise<void> {
  await db.insert(webhookDeliveryAttempts).values(row);
}

/**
 * The sweeper's safety net, across tenants: PENDING deliveries whose attempt fell due before
 * `overdueBefore` and never happened (the job was lost, or the worker died and its lease ran
 * out) are made due again at `at` and returned, so the caller enqueues one job each. Making them
 * due "now" is what keeps a delivery from being picked again by every sweep while its job waits.
 */
export function rearmOverdueWebhookDeliveries(
  db: Executor,
  params: { overdueBefore: Date; at: Date; limit: number },
): Promise<{ id: string; tenantId: string }[]> {
  const overdue = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, "PENDING"), lt(webhookDeliveries.nextAttemptAt, params.overdueBefore)))
    .orderBy(webhookDeliveries.nextAttemptAt)
    .limit(params.limit)
    .for("update", { skipLocked: true });
  return db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: params.at, updatedAt: params.at })
    .where(and(inArray(webhookDeliveries.id, overdue), eq(webhookDeliveries.status, "PENDING")))
    .returning({ id: webhookDeliveries.id, tenantId: webhookDeliveries.tenantId });
}

/** One page of an endpoint's deliveries, newest first. */
export function listWebhookDeliveryRows(
  db: Executor,
  params: WebhookEndpointKey & { status?: WebhookDeliveryStatusValue | undefined; beforeId?: string | undefined; limit: number },
): Promise<WebhookDeliveryRow[]> {
  return db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.tenantId, params.tenantId),
        eq(webhookDeliveries.endpointId, params.endpointId),
        params.status ? eq(webhookDeliveries.status, params.status) : undefined,
        params.beforeId ? lt(webhookDeliveries.id, params.beforeId) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.id))
    .limit(params.limit);
}

/** The attempts of these deliveries, oldest first. */
export function listWebhookDeliveryAttemptRows(
  db: Executor,
  params: { tenantId: string; deliveryIds: string[] },
): Promise<WebhookDeliveryAttemptRow[]> {
  if (params.deliveryIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(webhookDeliveryAttempts)
    .where(and(eq(webhookDeliveryAttempts.tenantId, params.tenantId), inArray(webhookDeliveryAttempts.deliveryId, params.deliveryIds)))
    .orderBy(webhookDeliveryAttempts.id);
}
