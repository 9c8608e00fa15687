"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "../../../src/dashboard/trpc";
import { TextField } from "../../_components/field";
import { Pager, usePager } from "../../_components/pager";
import { Empty, ErrorNotice, Loading } from "../../_components/states";
import { Time } from "../../_components/time";

/** Actions worth filtering on; any other action name can be typed. */
const COMMON_ACTIONS = ["auth.failed", "auth.logged_in", "credential.created", "credential.rotated", "credential.revoked", "credential.exposed", "policy.replaced", "settings.ip_allowlist_replaced", "settings.screening_denylist_replaced", "transaction.created", "transaction.signature_rejected", "request.key_material_rejected", "vault.created", "webhook.created"];

export default function AuditPage() {
  const trpc = useTRPC();
  const pager = usePager();
  const [input, setInput] = useState("");
  const [action, setAction] = useState("");
  const events = useQuery(trpc.auditEvents.list.queryOptions({ limit: 50, cursor: pager.cursor, action: action || undefined }));

  function filter(event: FormEvent) {
    event.preventDefault();
    setAction(input.trim());
    pager.reset();
  }

  return (
    <>
      <h1>Audit log</h1>
      <p>Authentication failures, credential, policy and allowlist changes, signatures and refused requests, newest first. Entries are never changed or deleted.</p>
      <form onSubmit={filter} className="row" role="search">
        <TextField label="Action" value={input} onChange={(e) => setInput(e.target.value)} list="audit-actions" hint="Exact action name, e.g. auth.failed; empty: every action." />
        <datalist id="audit-actions">
          {COMMON_ACTIONS.map((a) => (
            <option key={a} value={a} />
          ))}
        </datalist>
        <div className="field">
          <button type="submit">Filter</button>
        </div>
      </form>
      {events.error ? (
        <ErrorNotice error={events.error} title="Could not load the audit log" />
      ) : !events.data ? (
        <Loading what="the audit log" />
      ) : events.data.events.length === 0 ? (
        <Empty>{action ? `No "${action}" entries.` : "No entries yet."}</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Action</th>
                  <th scope="col">Actor</th>
                  <th scope="col">Target</th>
                  <th scope="col">Source</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {events.data.events.map((event) => (
                  <tr key={event.id} data-testid="audit-row">
                    <td>
                      <Time at={event.createdAt} />
                    </td>
                    <td>
                      <code>{event.action}</code>
                    </td>
                    <td>
                      {event.actorType}
                      {event.actorId && <div className="mono small">{event.actorId}</div>}
                    </td>
                    <td>
                      {event.targetType ?? "—"}
                      {event.targetId && <div className="mono small">{event.targetId}</div>}
                    </td>
                    <td className="small">
                      {event.ip ?? "—"}
                      {event.requestId && <div className="mono muted">{event.requestId}</div>}
                    </td>
                    <td>
                      {Object.keys(event.details).length > 0 ? <pre className="small">{JSON.stringify(event.details, null, 1)}</pre> : "—"}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager pager={pager} page={events.data.page} />
        </>
      )}
    </>
  );
}
