"use client";

import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC, useTRPCClient } from "../../../src/dashboard/trpc";
import { TextField } from "../../_components/field";
import { formFailure } from "../../_components/form-failure";
import { ErrorNotice, QueryView } from "../../_components/states";
import { Time } from "../../_components/time";

/**
 * The signed-in member's passkeys (CONTRACT §14): register one with a name (the browser's
 * WebAuthn prompt, through @simplewebauthn/browser), list, remove; and, for an OWNER, the switch
 * that makes every dashboard login ask for one after the password.
 */
export function PasskeysSection({ isOwner }: { isOwner: boolean }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const passkeys = useQuery(trpc.passkeys.listOwn.queryOptions());
  const security = useQuery(trpc.passkeys.securitySettings.queryOptions());
  const [name, setName] = useState("");
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.passkeys.listOwn.queryKey() });

  const register = useMutation({
    mutationFn: async (passkeyName: string) => {
      const { challengeId, options } = await client.passkeys.registrationOptions.mutate({});
      // The server's @simplewebauthn/server options, passed on whole.
      const response = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
      return client.passkeys.register.mutate({ challengeId, name: passkeyName, response });
    },
    onSuccess: () => {
      setName("");
      return refresh();
    },
  });
  const remove = useMutation(trpc.passkeys.removeOwn.mutationOptions({ onSuccess: refresh }));
  const setRequired = useMutation(
    trpc.passkeys.updateSecuritySettings.mutationOptions({
      onSuccess: (saved) => queryClient.setQueryData(trpc.passkeys.securitySettings.queryKey(), saved),
    }),
  );
  const failure = formFailure(register.error, ["name"]);

  function submit(event: FormEvent) {
    event.preventDefault();
    register.mutate(name.trim());
  }

  return (
    <section aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading">Passkeys</h2>
      <p>
        A passkey (a security key, or your device&apos;s screen lock) is a second factor for logging in to this dashboard. API keys are not
        affected.
      </p>
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
                    <button
                      type="button"
                      className="secondary small"
                      disabled={remove.isPending}
                      onClick={() => remove.mutate({ passkeyId: p.id })}
                    >
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
      {isOwner && (
        <QueryView query={security} what="the security settings" errorTitle="Could not load the security settings">
          {(settings) => (
            <div className="field" data-testid="require-passkey">
              <label>
                <input
                  type="checkbox"
                  checked={settings.requirePasskey}
                  disabled={setRequired.isPending}
                  onChange={(e) => setRequired.mutate({ requirePasskey: e.target.checked })}
                />{" "}
                Require a passkey at every member&apos;s login
              </label>
              <div className="hint">
                Members without a passkey cannot log in while this is on: turn it off while someone registers their first one.
              </div>
              <ErrorNotice error={setRequired.error} title="Could not change the setting" />
            </div>
          )}
        </QueryView>
      )}
    </section>
  );
}
