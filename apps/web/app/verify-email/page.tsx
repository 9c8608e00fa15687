"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { describeFailure } from "../../src/dashboard/api-error";
import { useTRPC } from "../../src/dashboard/trpc";
import { PublicFrame } from "../_components/public-frame";

/**
 * The page the emailed link opens: `/verify-email?token=…`. It verifies on a click, not on
 * load, so a mail scanner that fetches links does not use up the single-use token.
 */
export default function VerifyEmailPage() {
  const trpc = useTRPC();
  const [token, setToken] = useState<string | null | undefined>(undefined);
  useEffect(() => setToken(new URLSearchParams(window.location.search).get("token")), []);
  const verify = useMutation(trpc.signup.verifyEmail.mutationOptions());

  return (
    <PublicFrame title="Verify your email">
      {token === null && <p>This page needs the link from the verification email (it carries a token).</p>}
      {token && !verify.isSuccess && (
        <p>
          <button type="button" onClick={() => verify.mutate({ token })} disabled={verify.isPending}>
            {verify.isPending ? "Verifying…" : "Verify email"}
          </button>
        </p>
      )}
      {verify.isSuccess && (
        <div role="status" data-testid="verify-result">
          <p className="notice success">Email verified for {verify.data.email}. You can now log in.</p>
          <p>
            <a href={`/login?email=${encodeURIComponent(verify.data.email)}`}>Log in</a>
          </p>
        </div>
      )}
      {verify.error && (
        <div role="alert" data-testid="verify-result">
          <p className="notice error">Could not verify: {describeFailure(verify.error).message}</p>
          <p>
            Links work once and for 24 hours. <a href="/signup/check-email">Ask for a new link</a>, or <a href="/login">log in</a> if your
            address is already verified.
          </p>
        </div>
      )}
    </PublicFrame>
  );
}
