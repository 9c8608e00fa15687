import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { emails } from "../schema/identity";

/*
 * The emails the service sends. The delivery job and the dev mailbox know an email by its id or
 * its recipient only: account emails are sent before a tenant exists, so `tenantId` may be null.
 */

export type EmailRow = typeof emails.$inferSelect;

export async function insertEmail(
  db: Executor,
  params: { tenantId: string | null; to: string; subject: string; text: string; kind: string },
): Promise<{ id: string }> {
  const [row] = await db.insert(emails).values(params).returning({ id: emails.id });
  return row!;
}

export async function findEmail(db: Executor, params: { emailId: string }): Promise<EmailRow | undefined> {
  const [row] = await db.select().from(emails).where(eq(emails.id, params.emailId));
  return row;
}

/** Counts a failed delivery attempt and keeps its error (at most 500 characters). */
export async function recordEmailFailure(db: Executor, params: { emailId: string; lastError: string }): Promise<void> {
  await db
    .update(emails)
    .set({ attempts: sql`${emails.attempts} + 1`, lastError: params.lastError.slice(0, 500) })
    .where(eq(emails.id, params.emailId));
}

/** Counts the successful attempt and marks the email sent, once (a second call changes nothing). */
export async function recordEmailSent(
  db: Executor,
  params: { emailId: string; sentAt: Date; transport: "smtp" | "outbox" },
): Promise<void> {
  await db
    .update(emails)
    .set({ attempts: sql`${emails.attempts} + 1`, lastError: null, sentAt: params.sentAt, transport: params.transport })
    .where(and(eq(emails.id, params.emailId), isNull(emails.sentAt)));
}

/** The emails to one recipient delivered to the dev outbox, newest first. */
export function listOutboxEmails(db: Executor, params: { to: string; limit: number }): Promise<EmailRow[]> {
  return db
    .select()
    .from(emails)
    .where(and(eq(emails.to, params.to), eq(emails.transport, "outbox")))
    .orderBy(desc(emails.createdAt), desc(emails.id))
    .limit(params.limit);
}
