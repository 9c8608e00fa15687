/** A password-reset link works once, for one hour. */
export const PASSWORD_RESET_TTL_MS = 3600_000;

/** The link in the email: the dashboard's page asks for the new password and confirms with the token. */
export function passwordResetLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/reset-password?token=${token}`;
}

export function composePasswordResetEmail(input: { publicUrl: string; token: string; name: string | null }) {
  return {
    subject: "Reset your Quantum Custody password",
    text: [
      `Hello${input.name ? ` ${input.name}` : ""},`,
      "",
      "Someone asked to reset the password of your Quantum Custody account. To choose a new one, open:",
      "",
      passwordResetLink(input.publicUrl, input.token),
      "",
      "The link works once and expires in 1 hour. Setting a new password signs out every session of the account.",
      "If you did not ask for this, ignore this email: your password stays as it is.",
    ].join("\n"),
  };
}
