"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { describeFailure } from "../../../src/dashboard/api-error";
import { useTRPC } from "../../../src/dashboard/trpc";
import { FormError } from "../../_components/field";
import { formFailure } from "../../_components/form-failure";
import { QueryView } from "../../_components/states";
import { useSignedInMember } from "../../_components/use-signed-in-member";
import { PasskeysSection } from "./passkeys-section";

type Entry = { cidr: string; label: string };

export default function SettingsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { can } = useSignedInMember();
  const allowlist = useQuery(trpc.settings.getIpAllowlist.queryOptions());
  const [entries, setEntries] = useState<Entry[]>([]);
  useEffect(() => {
    if (allowlist.data) setEntries(allowlist.data.entries.map((e) => ({ cidr: e.cidr, label: e.label })));
  }, [allowlist.data]);
  const save = useMutation(
    trpc.settings.replaceIpAllowlist.mutationOptions({
      onSuccess: (saved) => queryClient.setQueryData(trpc.settings.getIpAllowlist.queryKey(), saved),
    }),
  );
  const fields = save.error ? describeFailure(save.error).fields : {};
  const failure = formFailure(save.error, ["entries"]);
  const update = (index: number, patch: Partial<Entry>) => setEntries((all) => all.map((e, i) => (i === index ? { ...e, ...patch } : e)));

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate({ entries: entries.filter((e) => e.cidr.trim()).map((e) => ({ cidr: e.cidr.trim(), label: e.label.trim() })) });
  }

  return (
    <>
      <h1>Settings</h1>
      <section aria-labelledby="allowlist-heading">
        <h2 id="allowlist-heading">IP allowlist</h2>
        <p>
          API keys work only from these addresses (IPv4 or IPv6, single addresses or CIDR ranges). An empty list allows every address. The
          dashboard itself is not restricted, so you cannot lock yourself out of it.
        </p>
        <QueryView query={allowlist} what="the allowlist" errorTitle="Could not load the allowlist">
          {(data) =>
            !can("administer") ? (
              // An INITIATOR, APPROVER or VIEWER reads the list; only an OWNER or ADMIN changes it.
              <div data-testid="ip-allowlist">
                {data.entries.length === 0 ? (
                  <p className="empty">Empty: API keys are accepted from any address.</p>
                ) : (
                  <ul>
                    {data.entries.map((entry) => (
                      <li key={entry.cidr}>
                        <span className="mono">{entry.cidr}</span>
                        {entry.label && ` (${entry.label})`}
                      </li>
                    ))}
                  </ul>
                )}
                <p>Only an OWNER or ADMIN changes the allowlist.</p>
              </div>
            ) : (
              <form onSubmit={submit} noValidate data-testid="ip-allowlist">
                {entries.length === 0 && <p className="empty">Empty: API keys are accepted from any address.</p>}
                {entries.map((entry, i) => (
                  <div className="row" key={i}>
                    <div className={`field${fields[`entries.${i}.cidr`] ? " has-error" : ""}`}>
                      <label htmlFor={`cidr-${i}`}>Address or range {i + 1}</label>
                      <input
                        id={`cidr-${i}`}
                        value={entry.cidr}
                        onChange={(e) => update(i, { cidr: e.target.value })}
                        placeholder="203.0.113.0/24"
                        spellCheck={false}
                      />
                      {fields[`entries.${i}.cidr`] && (
                        <div className="field-error" role="alert">
                          {fields[`entries.${i}.cidr`]}
                        </div>
                      )}
                    </div>
                    <div className="field">
                      <label htmlFor={`cidr-label-${i}`}>Label {i + 1}</label>
                      <input
                        id={`cidr-label-${i}`}
                        value={entry.label}
                        onChange={(e) => update(i, { label: e.target.value })}
                        maxLength={100}
                      />
                    </div>
                    <div className="field">
                      <button type="button" className="secondary small" onClick={() => setEntries((all) => all.filter((_, j) => j !== i))}>
                        Remove entry {i + 1}
                      </button>
                    </div>
                  </div>
                ))}
                <div className="actions">
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => setEntries((all) => [...all, { cidr: "", label: "" }])}
                    disabled={entries.length >= 200}
                  >
                    Add address
                  </button>
                </div>
                <FormError message={Object.keys(fields).some((p) => p.startsWith("entries.")) ? null : failure.form} />
                <button type="submit" disabled={save.isPending}>
                  Save allowlist
                </button>
                {save.isSuccess && <span role="status"> Saved.</span>}
              </form>
            )
          }
        </QueryView>
      </section>
      <PasskeysSection isOwner={can("manage_owners")} />
    </>
  );
}
