"use client";

import { useEffect, useState, type FormEvent } from "react";
import { useTRPCClient } from "../../../src/dashboard/trpc";
import { FormError, TextField } from "../../_components/field";
import { formFailure } from "../../_components/form-failure";
import { PASSKEY_CANCELLED, PasskeyStepNotice, usePasswordThenPasskey } from "../../_components/passkey-login";
import { safeNext } from "../../_components/safe-next";

/**
 * The operators' own login: operator accounts are not tenant users, and tenant logins do not work
 * here. While the service requires operators' passkeys, the password is followed by the passkey
 * (CONTRACT §14, as the dashboard's /login): `operators.loginPasskey` opens the session.
 */
export default function OperatorLoginPage() {
  const client = useTRPCClient();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [next, setNext] = useState("/operators");
  useEffect(() => setNext(safeNext(new URLSearchParams(window.location.search).get("next"), "/operators")), []);
  const { login, cancelled, waitingForPasskey } = usePasswordThenPasskey({
    password: (credentials) => client.operators.login.mutate(credentials),
    passkey: (answer) => client.operators.loginPasskey.mutate(answer),
  });
  const failure = formFailure(cancelled ? null : login.error, ["email", "password"]);

  function submit(event: FormEvent) {
    event.preventDefault();
    login.mutate({ email, password }, { onSuccess: () => window.location.assign(next.startsWith("/operators") ? next : "/operators") });
  }

  return (
    <div className="public">
      <span className="brand">Quantum Custody · operators</span>
      <main id="main">
        <h1>Operators&apos; console</h1>
        <p className="muted">
          For the people who run this deployment. Operator accounts are made on the command line (see docs/dashboard.md).
        </p>
        <form onSubmit={submit} noValidate>
          <TextField
            label="Email"
            type="email"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
            error={failure.field("email")}
          />
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            error={failure.field("password")}
          />
          <FormError message={cancelled ? PASSKEY_CANCELLED : failure.form} />
          <PasskeyStepNotice show={waitingForPasskey} />
          <button type="submit" disabled={login.isPending || login.isSuccess}>
            {login.isPending ? "Logging in…" : "Log in"}
          </button>
        </form>
      </main>
    </div>
  );
}
