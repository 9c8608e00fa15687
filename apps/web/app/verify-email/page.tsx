"use client";

import { useEffect, useState } from "react";

type Outcome = { kind: "idle" } | { kind: "busy" } | { kind: "verified"; email: string } | { kind: "failed"; message: string };

/**
 * The page the emailed link opens: `/verify-email?token=…`. It verifies on a click, not on
 * load, so a mail scanner that fetches links does not use up the single-use token.
 */
export default function VerifyEmailPage() {
  const [token, setToken] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>({ kind: "idle" });
  useEffect(() => setToken(new URLSearchParams(window.location.search).get("token")), []);

  async function verify() {
    if (!token) return;
    setOutcome({ kind: "busy" });
    try {
      const res = await fetch("/v1/signup/verify-email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token }),
      });
      const body = (await res.json()) as { status?: string; email?: string; message?: string };
      if (res.ok && body.status === "EMAIL_VERIFIED") setOutcome({ kind: "verified", email: body.email ?? "" });
      else setOutcome({ kind: "failed", message: body.message ?? `HTTP ${res.status}` });
    } catch (error) {
      setOutcome({ kind: "failed", message: (error as Error).message });
    }
  }

  return (
    <main>
      <h1>Verify your email</h1>
      {token === null && <p>This page needs the link from the verification email (it carries a token).</p>}
      {token !== null && outcome.kind === "idle" && (
        <p>
          <button type="button" onClick={() => void verify()}>
            Verify my email address
          </button>
        </p>
      )}
      {outcome.kind === "busy" && <p>Verifying…</p>}
      {outcome.kind === "verified" && (
        <p role="status" data-testid="verify-result">
          Email verified{outcome.email ? ` for ${outcome.email}` : ""}. You can now log in (<code>POST /v1/auth/login</code>).
        </p>
      )}
      {outcome.kind === "failed" && (
        <p role="alert" data-testid="verify-result">
          Could not verify: {outcome.message} You can ask for a new link with <code>POST /v1/signup/resend-verification</code>.
        </p>
      )}
    </main>
  );
}
