"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { ApiKey, Scope } from "../../../src/dashboard/router-types";
import { useTRPC } from "../../../src/dashboard/trpc";
import { SCOPES } from "../../../src/dashboard/vocabulary";
import { DataTable } from "../../_components/data-table";
import { CheckboxGroup, FormError, TextField } from "../../_components/field";
import { formFailure } from "../../_components/form-failure";
import { SecretOnce } from "../../_components/secret-once";
import { ErrorNotice, QueryView } from "../../_components/states";
import { StatusBadge } from "../../_components/status-badge";
import { Time } from "../../_components/time";
import { useSignedInMember } from "../../_components/use-signed-in-member";

/** The access a new key gets: chosen scopes, or every scope, which has to be ticked on purpose (review L13). */
type Access = Scope | "full";
const FULL_ACCESS_LABEL = "Full access: every scope, the signer's included";

const SCOPE_LABELS: Record<Scope, string> = {
  read: "read: every GET except keys, webhooks, policies and settings",
  write: "write: also create and change vaults, wallets and transactions (an integration)",
  admin: "admin: also keys, webhooks, policies and settings",
  signer: "signer: for your signer only: enroll keys, register wallets, sign and reject (includes read; write and admin do not include it)",
};

// A key's row renders itself: it opens a second row with the rotation form.
const KEY_HEADERS = ["Label", "Key ID", "Scopes", "Status", "Created", "Expires", "Last used", "Actions"];

export default function ApiKeysPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.credentials.list.queryOptions());
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.credentials.list.queryKey() });
  const [shown, setShown] = useState<{ title: string; keyId: string; secret: string } | null>(null);

  const [label, setLabel] = useState("");
  const [access, setAccess] = useState<Access[]>(["write"]);
  const full = access.includes("full");
  const scopes = access.filter((a): a is Scope => a !== "full");
  // Ticking full access clears the scopes, and ticking a scope clears full access: the form
  // never sends both, and never sends nothing (which the API reads as full access).
  const chooseAccess = (next: Access[]) => {
    const added = next.find((a) => !access.includes(a));
    setAccess(added === "full" ? ["full"] : next.filter((a) => a !== "full"));
  };
  const nothingChosen = access.length === 0;
  const [expiresAt, setExpiresAt] = useState("");
  const create = useMutation(
    trpc.credentials.create.mutationOptions({
      onSuccess: (key) => {
        setShown({ title: `New API key "${key.label}"`, keyId: key.keyId, secret: `${key.keyId}:${key.secret}` });
        setLabel("");
        void invalidate();
      },
    }),
  );
  const failure = formFailure(create.error, ["label", "scopes", "expiresAt"]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (nothingChosen) return;
    create.mutate({
      label,
      // Full access is the API's "no scopes" (CONTRACT §3), sent only when ticked.
      ...(full ? {} : { scopes }),
      ...(expiresAt ? { expiresAt: new Date(expiresAt).toISOString() } : {}),
    });
  }

  return (
    <>
      <h1>API keys</h1>
      <p>
        Your systems and your signer call the API with <code>Authorization: Bearer &lt;keyId&gt;:&lt;secret&gt;</code>. A key sent over
        plain HTTP is marked exposed: rotate it.
      </p>
      {shown && (
        <SecretOnce title={shown.title} secret={shown.secret} onDone={() => setShown(null)}>
          <p>
            Key ID <code>{shown.keyId}</code>. For the signer:{" "}
            <code>signer login --url {typeof window === "undefined" ? "" : window.location.origin} --key &lt;this secret&gt;</code>
          </p>
        </SecretOnce>
      )}
      <QueryView
        query={keys}
        what="API keys"
        errorTitle="Could not load API keys"
        empty={(data) => data.data.length === 0 && "No API keys yet."}
      >
        {(data) => (
          <DataTable
            headers={KEY_HEADERS}
            rows={data.data}
            rowKey={(key) => key.keyId}
            renderRow={(key) => (
              <KeyRow
                apiKey={key}
                onSecret={(title, keyId, secret) => setShown({ title, keyId, secret: `${keyId}:${secret}` })}
                onChanged={invalidate}
              />
            )}
          />
        )}
      </QueryView>
      <section className="panel" aria-labelledby="create-key-heading">
        <h2 id="create-key-heading">Create an API key</h2>
        <form onSubmit={submit} noValidate>
          <TextField
            label="Label"
            value={label}
            onChange={(e) => setLabel(e.target.value)}
            required
            maxLength={100}
            error={failure.field("label")}
            hint="What uses it, e.g. signer or ledger sync."
          />
          <CheckboxGroup<Access>
            legend="Scopes"
            options={[...SCOPES.map((s) => ({ value: s, label: SCOPE_LABELS[s] })), { value: "full", label: FULL_ACCESS_LABEL }]}
            value={access}
            onChange={chooseAccess}
            error={failure.field("scopes") ?? (nothingChosen ? "Tick at least one scope, or Full access." : undefined)}
            hint="read, write and admin each include the ones before them. Give your signer its own key with only signer: an integration key cannot then plant keys or register addresses."
          />
          <TextField
            label="Expires at"
            type="datetime-local"
            value={expiresAt}
            onChange={(e) => setExpiresAt(e.target.value)}
            error={failure.field("expiresAt")}
            hint="Optional; in your local time."
          />
          <FormError message={failure.form} />
          <button type="submit" disabled={create.isPending || nothingChosen}>
            Create API key
          </button>
        </form>
      </section>
    </>
  );
}

function KeyRow({
  apiKey,
  onSecret,
  onChanged,
}: {
  apiKey: ApiKey;
  onSecret: (title: string, keyId: string, secret: string) => void;
  onChanged: () => void;
}) {
  const trpc = useTRPC();
  const { me, can } = useSignedInMember();
  // A member rotates and revokes their own keys; an OWNER or ADMIN anyone's (the API refuses the rest).
  const mayManage = can("administer") || (can("own_keys") && apiKey.createdByUserId === me?.member.userId);
  const [rotating, setRotating] = useState(false);
  const [grace, setGrace] = useState("1440");
  const rotate = useMutation(
    trpc.credentials.rotate.mutationOptions({
      onSuccess: (result) => {
        setRotating(false);
        onSecret(
          `Rotated "${apiKey.label}": the new key (the old one works until ${new Date(result.oldKeyExpiresAt).toLocaleString()})`,
          result.newKeyId,
          result.secret,
        );
        onChanged();
      },
    }),
  );
  const revoke = useMutation(trpc.credentials.revoke.mutationOptions({ onSuccess: onChanged }));
  const usable = apiKey.status === "ACTIVE";
  return (
    <>
      <tr data-testid="api-key-row" data-key-id={apiKey.keyId}>
        <td>{apiKey.label}</td>
        <td className="mono">{apiKey.keyId}</td>
        <td>{apiKey.scopes.length === 0 ? "full access" : apiKey.scopes.join(", ")}</td>
        <td>
          <StatusBadge status={apiKey.status} />
          {apiKey.exposed && (
            <div>
              <StatusBadge status="FAILED">EXPOSED: rotate now</StatusBadge>
            </div>
          )}
        </td>
        <td>
          <Time at={apiKey.createdAt} />
        </td>
        <td>{apiKey.expiresAt ? <Time at={apiKey.expiresAt} /> : "never"}</td>
        <td>{apiKey.lastUsedAt ? <Time at={apiKey.lastUsedAt} /> : "never"}</td>
        <td>
          {usable && mayManage && (
            <div className="actions">
              <button type="button" className="secondary small" onClick={() => setRotating((r) => !r)} aria-expanded={rotating}>
                Rotate
              </button>
              <button
                type="button"
                className="danger small"
                disabled={revoke.isPending}
                onClick={() =>
                  window.confirm(`Revoke "${apiKey.label}" now? Calls with it fail at once.`) && revoke.mutate({ keyId: apiKey.keyId })
                }
              >
                Revoke
              </button>
            </div>
          )}
          <ErrorNotice error={revoke.error} />
        </td>
      </tr>
      {rotating && (
        <tr>
          <td colSpan={KEY_HEADERS.length}>
            <form
              className="row"
              onSubmit={(e: FormEvent) => {
                e.preventDefault();
                rotate.mutate({ keyId: apiKey.keyId, gracePeriodMinutes: Number(grace) });
              }}
            >
              <TextField
                label="Grace period (minutes)"
                type="number"
                min={0}
                max={10080}
                value={grace}
                onChange={(e) => setGrace(e.target.value)}
                hint="How long the old key keeps working: 0 ends it now, at most 10080 (7 days)."
              />
              <div className="field">
                <button type="submit" disabled={rotate.isPending}>
                  Rotate key
                </button>
              </div>
              <FormError message={formFailure(rotate.error, []).form} />
            </form>
          </td>
        </tr>
      )}
    </>
  );
}
