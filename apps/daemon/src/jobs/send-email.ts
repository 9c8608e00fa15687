import { deliverEmail, type EmailTransport, type ParsedJobPayload } from "@qc/core";
import nodemailer, { type Transporter } from "nodemailer";
import type { DaemonConfig, JobContext } from "../context";

const transporters = new Map<string, Transporter>();

/** One nodemailer transport per SMTP_URL (a connection per message: nothing to close on stop). */
function smtpTransport(smtpUrl: string, from: string): EmailTransport {
  let transporter = transporters.get(smtpUrl);
  if (!transporter) {
    transporter = nodemailer.createTransport(smtpUrl);
    transporters.set(smtpUrl, transporter);
  }
  const sender = transporter;
  return {
    name: "smtp",
    async send(message) {
      await sender.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
  };
}

/** Development only: the row in `emails` is the outbox; marking it delivered is all there is to do. */
const outboxTransport: EmailTransport = { name: "outbox", send: async () => {} };

function transportFor(config: DaemonConfig): EmailTransport {
  if (config.smtpUrl) return smtpTransport(config.smtpUrl, config.emailFrom);
  // Never the outbox in production: the email stays queued, retried, until SMTP_URL is set.
  if (config.production) throw new Error("SMTP_URL is not configured; emails cannot be delivered in production");
  return outboxTransport;
}

/**
 * Job `email.send`: delivers one stored email over SMTP (SMTP_URL), or into the dev outbox.
 * A failure (SMTP down, refused) throws, so pg-boss retries it with the queue's backoff; an email
 * already sent is left alone.
 */
export async function sendEmail(payload: ParsedJobPayload<"email.send">, ctx: JobContext) {
  return deliverEmail(ctx, payload.emailId, transportFor(ctx.config));
}
