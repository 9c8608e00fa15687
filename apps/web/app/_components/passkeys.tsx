"use client";

import { startRegistration, type PublicKeyCredentialCreationOptionsJSON, type RegistrationResponseJSON } from "@simplewebauthn/browser";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent, type ReactNode } from "react";
import { TextField } from "./field";
import { formFailure } from "./form-failure";
import { ErrorNotice, QueryView, type QueryLike } from "./states";
import { Time } from "./time";

/*
 * Passkeys on a page (CONTRACT §14), whoever owns them: a member on /settings (`passkeys.*`) or an
 * operator in the console (`operators.*`). The page hands in its calls; the list, the register
 * form (the browser's WebAuthn prompt through @simplewebauthn/browser) and the require switch
 * are the same.
 */

export interface ListedPasskey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The owner's passkey calls: the registration's two halves and the removal. */
export interface PasskeyCalls {
  registrationOptions(): Promise<{ challengeId: string; options: unknown }>;
  register(input: { challengeId: string; name: string; response: RegistrationResponseJSON }): Promise<unknown>;
  remove(passkeyId: string): Promise<unknown>;
  /** After a passkey was added or removed: the list's query is invalidated. */
  changed(): Promise<unknown>;
}

/** The owner's passkeys (name, added, last used, Remove) and the form that registers one with a name. */
export function PasskeyManager({ passkeys, calls }: { passkeys: QueryLike<{ passkeys: ListedPasskey[] }>; calls: PasskeyCalls }) {
  const [name, setName] = useState("");
  const register = useMutation({
    mutationFn: async (passkeyName: string) => {
      const { challengeId, options } = await calls.registrationOptions();
      // The server's @simplewebauthn/server options, passed on whole.
      const response = await startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON });
      return calls.register({ challengeId, name: passkeyName, response });
    },
    onSuccess: () => {
      setName("");
      return calls.changed();
    },
  });
  const remove = useMutation({ mutationFn: (passkeyId: string) => calls.remove(passkeyId), onSuccess: () => calls.changed() });
  const failure = formFailure(register.error, ["name"]);

  function submit(event: FormEvent) {
    event.preventDefault();
    register.mutate(name.trim());
  }

  return (
    <>
      <QueryView
        query={passkeys}
        what="your passkeys"
        errorTitle="Could not load your passkeys"
        empty={(d) => d.passkeys.length === 0 && "You have no passkey yet."}
      >
        {(data) => (
          <table data-testid="passkeys">
            <thead>
              <tr>
                <th>Name</th>
                <th>Added</th>
                <th>Last used</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {data.passkeys.map((p) => (
                <tr key={p.id}>
                  <td>{p.name}</td>
                  <td>
                    <Time at={p.createdAt} />
                  </td>
                  <td>{p.lastUsedAt ? <Time at={p.lastUsedAt} /> : "never"}</td>
                  <td>
                    <button type="button" className="secondary small" disabled={remove.isPending} onClick={() => remove.mutate(p.id)}>
                      Remove {p.name}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryView>
      <ErrorNotice error={remove.error} title="Could not remove the passkey" />
      <form onSubmit={submit} noValidate data-testid="register-passkey">
        <TextField
          label="Passkey name"
          name="passkey-name"
          required
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="YubiKey 5C"
          error={failure.field("name")}
        />
        {failure.form && (
          <div className="notice error" role="alert">
            {register.error instanceof Error && register.error.name === "NotAllowedError"
              ? "The browser's passkey prompt was cancelled."
              : failure.form}
          </div>
        )}
        <button type="submit" disabled={register.isPending || !name.trim()}>
          {register.isPending ? "Waiting for the passkey…" : "Register a passkey"}
        </button>
        {register.isSuccess && <span role="status"> Passkey registered.</span>}
      </form>
    </>
  );
}

/**
 * The switch that makes every login ask for a passkey after the password. Controlled: it shows the
 * saved value, so it turns on once the server took it (409 PASSKEY_REQUIRED without a passkey).
 */
export function RequirePasskeySwitch({
  required,
  save,
  label,
  hint,
}: {
  required: QueryLike<boolean>;
  save: { mutate(on: boolean): void; isPending: boolean; error: unknown };
  label: ReactNode;
  hint: ReactNode;
}) {
  return (
    <QueryView query={required} what="the security settings" errorTitle="Could not load the security settings">
      {(on) => (
        <div className="field" data-testid="require-passkey">
          <label>
            <input type="checkbox" checked={on} disabled={save.isPending} onChange={(e) => save.mutate(e.target.checked)} /> {label}
          </label>
          <div className="hint">{hint}</div>
          <ErrorNotice error={save.error} title="Could not change the setting" />
        </div>
      )}
    </QueryView>
  );
}
