"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC, useTRPCClient } from "../../../src/dashboard/trpc";
import { PasskeyManager, RequirePasskeySwitch } from "../../_components/passkeys";

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
  const setRequired = useMutation(
    trpc.passkeys.updateSecuritySettings.mutationOptions({
      onSuccess: (saved) => queryClient.setQueryData(trpc.passkeys.securitySettings.queryKey(), saved),
    }),
  );

  return (
    <section aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading">Passkeys</h2>
      <p>
        A passkey (a security key, or your device&apos;s screen lock) is a second factor for logging in to this dashboard. API keys are not
        affected.
      </p>
      <PasskeyManager
        passkeys={passkeys}
        calls={{
          registrationOptions: () => client.passkeys.registrationOptions.mutate({}),
          register: (input) => client.passkeys.register.mutate(input),
          remove: (passkeyId) => client.passkeys.removeOwn.mutate({ passkeyId }),
          changed: () => queryClient.invalidateQueries({ queryKey: trpc.passkeys.listOwn.queryKey() }),
        }}
      />
      {isOwner && (
        <RequirePasskeySwitch
          required={{ data: security.data?.requirePasskey, error: security.error }}
          save={{ ...setRequired, mutate: (requirePasskey) => setRequired.mutate({ requirePasskey }) }}
          label={<>Require a passkey at every member&apos;s login</>}
          hint="Members without a passkey cannot log in while this is on: turn it off while someone registers their first one."
        />
      )}
    </section>
  );
}
