import type { Executor } from "@qc/db";
import type { ServiceDeps } from "../deps/service-deps";
import { issueEmailToken } from "../identity/email-tokens";
import { queueEmail } from "./queue-email";

export const EMAIL_TOKEN_TTL_MS = 24 * 3600_000;
export const VERIFY_EMAIL_PURPOSE = "VERIFY_EMAIL" as const;

/** CONTRACT §3: the text part carries exactly `<PUBLIC_URL>/verify-email?token=<token>`. */
export function verificationLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/verify-email?token=${token}`;
}

export function composeVerificationEmail(input: { publicUrl: string; token: string; name: string | null; organizationName: string }) {
  const link = verificationLink(input.publicUrl, input.token);
  return {
    subject: "Verify your email for Quantum Custody",
    text: [
      `Hello${input.name ? ` ${input.name}` : ""},`,
      "",
      `Confirm your email address to finish creating the Quantum Custody account of ${input.organizationName}:`,
      "",
      link,
      "",
      "The link works once and expires in 24 hours. If you did not sign up, ignore this email.",
    ].join("\n"),
  };
}

/**
 * Issues a fresh verification token for the user (32 random bytes, base64url, stored only as
 * its SHA-256, single use, 24 h) and queues the email carrying it, in the caller's transaction.
 * The plaintext token exists only in the email.
 */
export async function issueVerificationEmail(
  tx: Executor,
  deps: Pick<ServiceDeps, "jobs" | "config">,
  now: Date,
  user: { id: string; tenantId: string; email: string; name: string | null; organizationName: string },
): Promise<{ emailId: string }> {
  const token = await issueEmailToken(tx, { userId: user.id, purpose: VERIFY_EMAIL_PURPOSE, now, ttlMs: EMAIL_TOKEN_TTL_MS });
  const message = composeVerificationEmail({
    publicUrl: deps.config.publicUrl,
    token,
    name: user.name,
    organizationName: user.organizationName,
  });
  const emailId = await queueEmail(tx, deps.jobs, { tenantId: user.tenantId, to: user.email, kind: "verify_email", ...message });
  return { emailId };
}
