"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { useTRPC } from "../../src/dashboard/trpc";
import { TextField, FormError } from "../_components/field";
import { formFailure } from "../_components/form-failure";
import { PublicFrame } from "../_components/public-frame";

/** The page the reset email links to: `/reset-password?token=…`. */
export default function ResetPasswordPage() {
  const trpc = useTRPC();
  const [token, setToken] = useState<string | null | undefined>(undefined);
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [mismatch, setMismatch] = useState(false);
  useEffect(() => setToken(new URLSearchParams(window.location.search).get("token")), []);
  const reset = useMutation(trpc.auth.confirmPasswordReset.mutationOptions());
  const failure = formFailure(reset.error, ["password", "token"]);

  function submit(event: FormEvent) {
    event.preventDefault();
    setMismatch(password !== confirm);
    if (password !== confirm || !token) return;
    reset.mutate({ token, password });
  }

  return (
    <PublicFrame title="Set a new password">
      {token === null && <p>This page needs the link from the password reset email (it carries a token).</p>}
      {reset.isSuccess ? (
        <p className="notice success" role="status">
          Your password is changed and every dashboard session of your account has ended. <a href="/login">Log in</a> with the new password.
        </p>
      ) : (
        token && (
          <form onSubmit={submit} noValidate>
            <TextField
              label="New password"
              name="password"
              type="password"
              autoComplete="new-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              error={failure.field("password")}
              hint="12 to 256 characters."
            />
            <TextField
              label="Repeat the new password"
              name="confirm"
              type="password"
              autoComplete="new-password"
              required
              value={confirm}
              onChange={(e) => setConfirm(e.target.value)}
              error={mismatch ? "the two passwords differ" : undefined}
            />
            <FormError message={failure.field("token") ?? failure.form} />
            <button type="submit" disabled={reset.isPending}>
              Set new password
            </button>
          </form>
        )
      )}
    </PublicFrame>
  );
}
