"use client";

import { startAuthentication, type AuthenticationResponseJSON, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";

/** What a password step answers when a passkey is required (CONTRACT §14): no session yet. */
interface PasskeyChallenge {
  passkeyRequired: true;
  challengeId: string;
  options: unknown;
}

/**
 * A login of two steps, the dashboard's or the console's: the password, then, when a passkey is
 * required, the browser's WebAuthn prompt (@simplewebauthn/browser's startAuthentication) answers
 * the challenge the password step gave, and that answer gets the session. `cancelled`: the
 * prompt was dismissed or timed out (the browser's NotAllowedError), not an API failure.
 */
export function usePasswordThenPasskey<Session extends object>(steps: {
  password(credentials: { email: string; password: string }): Promise<Session | PasskeyChallenge>;
  passkey(answer: { challengeId: string; response: AuthenticationResponseJSON }): Promise<Session>;
}) {
  const [passkeyStep, setPasskeyStep] = useState(false);
  const login = useMutation({
    mutationFn: async (credentials: { email: string; password: string }) => {
      setPasskeyStep(false);
      const first = await steps.password(credentials);
      if (!("passkeyRequired" in first)) return first;
      setPasskeyStep(true);
      const response = await startAuthentication({ optionsJSON: first.options as PublicKeyCredentialRequestOptionsJSON });
      return steps.passkey({ challengeId: first.challengeId, response });
    },
  });
  const cancelled = login.error instanceof Error && login.error.name === "NotAllowedError";
  return { login, cancelled, waitingForPasskey: passkeyStep && login.isPending };
}

export const PASSKEY_CANCELLED = "The passkey prompt was cancelled or timed out: log in again.";

/** Shown while the browser's passkey prompt is open. */
export function PasskeyStepNotice({ show }: { show: boolean }) {
  return show ? (
    <p role="status" data-testid="passkey-step">
      Confirm with your passkey…
    </p>
  ) : null;
}
