import { findEmail, recordEmailFailure, recordEmailSent } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

/** How an email leaves: over SMTP, or into the dev outbox (the row itself; never in production). */
export interface EmailTransport {
  name: "smtp" | "outbox";
  send(message: EmailMessage): Promise<void>;
}

export type DeliverEmailResult = { status: "sent"; transport: EmailTransport["name"] } | { status: "already_sent" } | { status: "missing" };

/**
 * Delivers one stored email (job `email.send`). Re-reads the row and does nothing when it is
 * already sent, so a retried or duplicated job never sends twice after a recorded success. A
 * transport failure is recorded on the row (attempts, last error) and rethrown, so the job is
 * retried with its backoff and nothing is lost while the SMTP server is down.
 */
export async function deliverEmail(
  deps: Pick<ServiceDeps, "db" | "now" | "log">,
  emailId: string,
  transport: EmailTransport,
): Promise<DeliverEmailResult> {
  const email = await findEmail(deps.db, { emailId });
  if (!email) return { status: "missing" };
  if (email.sentAt) return { status: "already_sent" };
  try {
    await transport.send({ to: email.to, subject: email.subject, text: email.text });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await recordEmailFailure(deps.db, { emailId, lastError: message });
    throw error;
  }
  await recordEmailSent(deps.db, { emailId, sentAt: deps.now(), transport: transport.name });
  // CONTRACT §3: without SMTP (development only; production refuses the outbox) the email is
  // written to the log as well as the dev outbox, text included. Over SMTP the text, which
  // carries single-use links, never reaches a log.
  const outbox = transport.name === "outbox";
  deps.log.info(
    { emailId, to: email.to, subject: email.subject, kind: email.kind, transport: transport.name, ...(outbox ? { text: email.text } : {}) },
    outbox ? "email delivered to the dev outbox (shown at /dev/mailbox)" : "email sent",
  );
  return { status: "sent", transport: transport.name };
}
