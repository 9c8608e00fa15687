import { listOutboxEmails } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";

export interface DevMailboxEmail {
  id: string;
  to: string;
  subject: string;
  text: string;
  kind: string;
  transport: "outbox";
  sentAt: string;
  createdAt: string;
}

/**
 * The dev mailbox (CONTRACT §3): the emails delivered to the dev outbox, with their text, so a
 * developer without an SMTP server can follow links. Emails carry single-use secrets, and the
 * mailbox is read before anyone can log in, so: refused in production (answered as if the route
 * did not exist); one recipient at a time, so it never shows who else has mail; and only what the
 * daemon delivered to the outbox (SMTP_URL unset), never mail that went out over SMTP nor mail
 * still queued (it may yet go out over SMTP).
 */
export async function listDevMailbox(
  deps: Pick<ServiceDeps, "db" | "config">,
  filter: { to: string; limit: number },
): Promise<DevMailboxEmail[]> {
  if (deps.config.production) throw new AppError("NOT_FOUND", "the dev mailbox does not exist in production");
  const rows = await listOutboxEmails(deps.db, { to: filter.to, limit: filter.limit });
  return rows.map((row) => ({
    id: row.id,
    to: row.to,
    subject: row.subject,
    text: row.text,
    kind: row.kind,
    transport: "outbox" as const,
    // Set in the same UPDATE as the transport (deliverEmail).
    sentAt: row.sentAt!.toISOString(),
    createdAt: row.createdAt.toISOString(),
  }));
}
