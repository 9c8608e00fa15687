"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { useTRPC } from "../../src/dashboard/trpc";
import { FormError, NewPasswordField, TextField } from "../_components/field";
import { formFailure } from "../_components/form-failure";
import { PublicFrame } from "../_components/public-frame";

/** The page the invitation email links to: `/accept-invite?token=…` (CONTRACT §14). */
export default function AcceptInvitePage() {
  const trpc = useTRPC();
  const [token, setToken] = useState<string | null | undefined>(undefined);
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  useEffect(() => setToken(new URLSearchParams(window.location.search).get("token")), []);
  const accept = useMutation(trpc.members.acceptInvitation.mutationOptions());
  const failure = formFailure(accept.error, ["name", "password", "token"]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (token) accept.mutate({ token, name, password });
  }

  return (
    <PublicFrame title="Join your organization">
      {token === null && <p>This page needs the link from the invitation email (it carries a token).</p>}
      {accept.isSuccess ? (
        <div className="notice success" role="status" data-testid="invitation-accepted">
          You are a member now, as {accept.data.role}, with the address {accept.data.email}.{" "}
          <a href={`/login?email=${encodeURIComponent(accept.data.email)}`}>Log in</a> with the password you chose.
        </div>
      ) : (
        token && (
          <form onSubmit={submit} noValidate>
            <p>You were invited to an organization on Quantum Custody. Choose your name and a password to join it.</p>
            <TextField
              label="Name"
              name="name"
              autoComplete="name"
              required
              maxLength={200}
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={failure.field("name")}
            />
            <NewPasswordField value={password} onChange={(e) => setPassword(e.target.value)} error={failure.field("password")} />
            <FormError message={failure.field("token") ?? failure.form} />
            <button type="submit" disabled={accept.isPending}>
              Accept invitation
            </button>
          </form>
        )
      )}
    </PublicFrame>
  );
}
