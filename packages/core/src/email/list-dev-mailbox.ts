import { desc, eq, schema, type Database } from "@qc/db";
import { AppError } from "../errors";

export interface DevMailboxEmail {
  id: string;
  to: string;
  subject: string;
  text: string;
  kind: string;
  /** "smtp" or "outbox" once delivered; null while waiting for the daemon. */
  transport: string | null;
  sentAt: string | null;
  createdAt: string;
}

/**
 * The dev mailbox (CONTRACT §3): the latest emails the service produced, with their text, so a
 * developer without an SMTP server can follow links. Refused in production, where it answers as
 * if the route did not exist: emails carry single-use secrets.
 */
export async function listDevMailbox(deps: { db: Database; production: boolean }, filter: { to?: string; limit: number }): Promise<DevMailboxEmail[]> {
  if (deps.production) throw new AppError("NOT_FOUND", "the dev mailbox does not exist in production");
  const { emails } = schema;
  const rows = await deps.db
    .select()
    .from(emails)
    .where(filter.to ? eq(emails.to, filter.to) : undefined)
    .orderBy(desc(emails.createdAt), desc(emails.id))
    .limit(filter.limit);
  return rows.map((row) => ({
    id: row.id,
    to: row.to,
    subject: row.subject,
    text: row.text,
    kind: row.kind,
    transport: row.transport,
    sentAt: row.sentAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  }));
}
