"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC, useTRPCClient } from "../../src/dashboard/trpc";
import { PasskeyManager, RequirePasskeySwitch } from "../_components/passkeys";

/**
 * The console's security (CONTRACT §14: operators' logins follow the members' rule with their own
 * setting): the signed-in operator's passkeys, and the service-wide switch that makes every
 * console login ask for one after the password. Any operator may turn it on (with a passkey of
 * their own) or off.
 */
export function OperatorSecurity() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const passkeys = useQuery(trpc.operators.passkeys.queryOptions());
  const security = useQuery(trpc.operators.securitySettings.queryOptions());
  const setRequired = useMutation(
    trpc.operators.updateSecuritySettings.mutationOptions({
      onSuccess: (saved) => queryClient.setQueryData(trpc.operators.securitySettings.queryKey(), saved),
    }),
  );

  return (
    <section aria-labelledby="security-heading">
      <h2 id="security-heading">Security</h2>
      <p>
        Your passkeys (a security key, or your device&apos;s screen lock): a second factor for logging in to this console. They are yours as
        an operator, apart from any organisation&apos;s dashboard passkeys.
      </p>
      <PasskeyManager
        passkeys={passkeys}
        calls={{
          registrationOptions: () => client.operators.passkeyRegistrationOptions.mutate({}),
          register: (input) => client.operators.registerPasskey.mutate(input),
          remove: (passkeyId) => client.operators.removePasskey.mutate({ passkeyId }),
          changed: () => queryClient.invalidateQueries({ queryKey: trpc.operators.passkeys.queryKey() }),
        }}
      />
      <RequirePasskeySwitch
        required={{ data: security.data?.requireOperatorPasskey, error: security.error }}
        save={{ ...setRequired, mutate: (requireOperatorPasskey) => setRequired.mutate({ requireOperatorPasskey }) }}
        label="Require a passkey at every operator's login"
        hint={
          <>
            For every operator of this deployment. An operator without a passkey cannot log in while this is on: another operator turns it
            off, or, with none left, <code>scripts/create-operator.ts --disable-passkey-requirement</code> on the server.
          </>
        }
      />
    </section>
  );
}
