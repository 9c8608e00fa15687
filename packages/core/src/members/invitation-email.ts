import type { MemberRole } from "@qc/domain";

/** An invitation works once, for 7 days (CONTRACT §14). */
export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

/** CONTRACT §14: the text part carries exactly `<PUBLIC_URL>/accept-invite?token=<token>`. */
export function invitationLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/accept-invite?token=${token}`;
}

export function composeInvitationEmail(input: { publicUrl: string; token: string; organizationName: string; role: MemberRole }) {
  return {
    subject: `You are invited to ${input.organizationName} on Quantum Custody`,
    text: [
      "Hello,",
      "",
      `You are invited to join ${input.organizationName} on Quantum Custody as ${input.role}. To accept, choose your ` +
        "name and password at:",
      "",
      invitationLink(input.publicUrl, input.token),
      "",
      "The link works once and expires in 7 days. If you did not expect this invitation, ignore this email.",
    ].join("\n"),
  };
}
