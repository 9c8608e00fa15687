"use client";

import { useEffect, useState, type FormEvent } from "react";
import { describeFailure } from "../../src/dashboard/api-error";
import { useTRPCClient } from "../../src/dashboard/trpc";
import { TextField, FormError } from "../_components/field";
import { formFailure } from "../_components/form-failure";
import { PASSKEY_CANCELLED, PasskeyStepNotice, usePasswordThenPasskey } from "../_components/passkey-login";
import { PublicFrame } from "../_components/public-frame";
import { safeNext } from "../_components/safe-next";

export default function LoginPage() {
  const client = useTRPCClient();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [next, setNext] = useState("/");
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    setEmail((current) => current || (params.get("email") ?? ""));
    setNext(safeNext(params.get("next"), "/"));
  }, []);
  // The password, then, when the organisation requires one, the passkey (CONTRACT §14).
  const { login, cancelled, waitingForPasskey } = usePasswordThenPasskey({
    password: (credentials) => client.auth.login.mutate(credentials),
    passkey: (answer) => client.passkeys.logIn.mutate(answer),
  });
  const failure = formFailure(cancelled ? null : login.error, ["email", "password"]);
  const notVerified = login.error && !cancelled && describeFailure(login.error).error === "EMAIL_NOT_VERIFIED";

  function submit(event: FormEvent) {
    event.preventDefault();
    // A full navigation: the console starts from a clean cache with the new session.
    login.mutate({ email, password }, { onSuccess: () => window.location.assign(next) });
  }

  return (
    <PublicFrame title="Log in">
      <form onSubmit={submit} noValidate>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={failure.field("email")}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={failure.field("password")}
        />
        <FormError message={cancelled ? PASSKEY_CANCELLED : failure.form} />
        <PasskeyStepNotice show={waitingForPasskey} />
        {notVerified && (
          <p>
            <a href={`/signup/check-email?email=${encodeURIComponent(email)}`}>Send a new verification link</a>
          </p>
        )}
        <button type="submit" disabled={login.isPending || login.isSuccess}>
          {login.isPending ? "Logging in…" : "Log in"}
        </button>
      </form>
      <p>
        <a href="/forgot-password">Forgot your password?</a> · <a href="/signup">Sign up</a>
      </p>
    </PublicFrame>
  );
}
