"use client";

import type { AccountType } from "@qc/domain";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useTRPC } from "../../src/dashboard/trpc";
import { FormError, NewPasswordField, SelectField, TextField } from "../_components/field";
import { formFailure } from "../_components/form-failure";
import { PublicFrame } from "../_components/public-frame";

export default function SignupPage() {
  const trpc = useTRPC();
  const router = useRouter();
  const [form, setForm] = useState({ organizationName: "", name: "", email: "", password: "", accountType: "BUSINESS" as AccountType });
  const signup = useMutation(trpc.signup.create.mutationOptions());
  const failure = formFailure(signup.error, ["organizationName", "name", "email", "password", "accountType"], {
    EMAIL_ALREADY_REGISTERED: "email",
  });
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: event.target.value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    signup.mutate(
      {
        organizationName: form.organizationName,
        name: form.name || undefined,
        email: form.email,
        password: form.password,
        accountType: form.accountType,
      },
      { onSuccess: () => router.push(`/signup/check-email?email=${encodeURIComponent(form.email.trim().toLowerCase())}`) },
    );
  }

  return (
    <PublicFrame title="Create your account">
      <form onSubmit={submit} noValidate>
        <TextField
          label="Organization name"
          name="organizationName"
          autoComplete="organization"
          required
          value={form.organizationName}
          onChange={set("organizationName")}
          error={failure.field("organizationName")}
        />
        <SelectField
          label="Account type"
          name="accountType"
          value={form.accountType}
          onChange={set("accountType")}
          error={failure.field("accountType")}
        >
          <option value="BUSINESS">Business</option>
          <option value="INDIVIDUAL">Individual</option>
        </SelectField>
        <TextField
          label="Your name"
          name="name"
          autoComplete="name"
          value={form.name}
          onChange={set("name")}
          error={failure.field("name")}
          hint="Optional."
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={form.email}
          onChange={set("email")}
          error={failure.field("email")}
        />
        <NewPasswordField value={form.password} onChange={set("password")} error={failure.field("password")} />
        <FormError message={failure.form} />
        <button type="submit" disabled={signup.isPending}>
          {signup.isPending ? "Signing up…" : "Sign up"}
        </button>
      </form>
      <p>
        Already have an account? <a href="/login">Log in</a>
      </p>
    </PublicFrame>
  );
}
