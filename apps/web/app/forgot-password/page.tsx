"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "../../src/dashboard/trpc";
import { DevMailboxLink } from "../_components/dev-mailbox-link";
import { TextField, FormError } from "../_components/field";
import { formFailure } from "../_components/form-failure";
import { PublicFrame } from "../_components/public-frame";

export default function ForgotPasswordPage() {
  const trpc = useTRPC();
  const [email, setEmail] = useState("");
  const request = useMutation(trpc.auth.requestPasswordReset.mutationOptions());
  const failure = formFailure(request.error, ["email"]);

  function submit(event: FormEvent) {
    event.preventDefault();
    request.mutate({ email });
  }

  return (
    <PublicFrame title="Reset your password">
      {request.isSuccess ? (
        <>
          <p className="notice success" role="status">
            If <strong>{email}</strong> has an account, we sent it a link to set a new password. The link works once, for one hour.
          </p>
          <DevMailboxLink email={email.trim().toLowerCase()} />
        </>
      ) : (
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
          <button type="submit" disabled={request.isPending}>
            Send reset link
          </button>
        </form>
      )}
      <p>
        <a href="/login">Back to log in</a>
      </p>
    </PublicFrame>
  );
}
