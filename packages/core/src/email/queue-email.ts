import type { Executor } from "@qc/db";
import { insertEmail } from "@qc/db/queries";
import type { JobQueue } from "../jobs/queue";

export interface OutgoingEmail {
  tenantId: string | null;
  to: string;
  subject: string;
  /** Plain text; the only part sent (links must survive any client). */
  text: string;
  /** What the email is for, e.g. "verify_email"; shown in the dev mailbox. */
  kind: string;
}

/**
 * Stores the email and enqueues its delivery (job `email.send`) inside the caller's
 * transaction: the email exists, and will be retried until delivered, if and only if the change
 * that caused it committed.
 */
export async function queueEmail(tx: Executor, jobs: JobQueue, email: OutgoingEmail): Promise<string> {
  const { id } = await insertEmail(tx, email);
  await jobs.send(tx, "email.send", { emailId: id });
  return id;
}
