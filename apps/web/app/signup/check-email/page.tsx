"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { useTRPC } from "../../../src/dashboard/trpc";
import { DevMailboxLink } from "../../_components/dev-mailbox-link";
import { TextField, FormError } from "../../_components/field";
import { formFailure } from "../../_components/form-failure";
import { PublicFrame } from "../../_components/public-frame";

/** After signup: where the link went, and a way to ask for a new one. */
export default function CheckEmailPage() {
  const trpc = useTRPC();
  const [email, setEmail] = useState("");
  useEffect(() => setEmail(new URLSearchParams(window.location.search).get("email") ?? ""), []);
  const resend = useMutation(trpc.signup.resendVerification.mutationOptions());
  const failure = formFailure(resend.error, ["email"]);

  function submit(event: FormEvent) {
    event.preventDefault();
    resend.mutate({ email });
  }

  return (
    <PublicFrame title="Check your email">
      <p role="status">
        We sent a verification link
        {email ? (
          <>
            {" "}
            to <strong>{email}</strong>
          </>
        ) : null}
        . Open it to verify your address; it is valid for 24 hours and works once. Then log in.
      </p>
      {email && <DevMailboxLink email={email} />}
      <h2>No email?</h2>
      <form onSubmit={submit}>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={failure.field("email")}
        />
        <FormError message={failure.form} />
        <button type="submit" disabled={resend.isPending}>
          Resend verification email
        </button>
        {resend.isSuccess && (
          <p className="notice success" role="status">
            If this address has an account waiting for verification, a new link is on its way. Earlier links no longer work.
          </p>
        )}
      </form>
      <p>
        <a href="/login">Log in</a> once your address is verified.
      </p>
    </PublicFrame>
  );
}
