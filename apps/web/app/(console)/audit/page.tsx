"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { AuditEvent } from "../../../src/dashboard/router-types";
import { useTRPC } from "../../../src/dashboard/trpc";
import { AssetAmount } from "../../_components/amount";
import { DataTable, type Column } from "../../_components/data-table";
import { TextField } from "../../_components/field";
import { Pager, usePager } from "../../_components/pager";
import { QueryView } from "../../_components/states";
import { Time } from "../../_components/time";

/** Actions worth filtering on; any other action name can be typed. */
const COMMON_ACTIONS = [
  "auth.failed",
  "auth.logged_in",
  "credential.created",
  "credential.rotated",
  "credential.revoked",
  "credential.exposed",
  "policy.replaced",
  "settings.ip_allowlist_replaced",
  "settings.screening_denylist_replaced",
  "transaction.created",
  "transaction.signature_rejected",
  "request.key_material_rejected",
  "vault.created",
  "webhook.created",
];

const COLUMNS: Column<AuditEvent>[] = [
  { header: "When", cell: (event) => <Time at={event.createdAt} /> },
  { header: "Action", cell: (event) => <code>{event.action}</code> },
  {
    header: "Actor",
    cell: (event) => (
      <>
        {event.actorType}
        {event.actorId && <div className="mono small">{event.actorId}</div>}
      </>
    ),
  },
  {
    header: "Target",
    cell: (event) => (
      <>
        {event.targetType ?? "—"}
        {event.targetId && <div className="mono small">{event.targetId}</div>}
      </>
    ),
  },
  {
    header: "Source",
    cellProps: () => ({ className: "small" }),
    cell: (event) => (
      <>
        {event.ip ?? "—"}
        {event.requestId && <div className="mono muted">{event.requestId}</div>}
      </>
    ),
  },
  {
    header: "Details",
    cell: (event) => (Object.keys(event.details).length > 0 ? <AuditDetails details={event.details} /> : "—"),
  },
];

/**
 * An entry's details as recorded, one per line; an `amount` beside its `assetId` (a transfer's
 * creation) in the asset's units, its base units on hover, like every other amount.
 */
function AuditDetails({ details }: { details: AuditEvent["details"] }) {
  const assetId = typeof details.assetId === "string" ? details.assetId : null;
  return (
    <dl className="small audit-details">
      {Object.entries(details).map(([key, value]) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd>
            {key === "amount" && typeof value === "string" && /^[0-9]+$/.test(value) ? (
              <AssetAmount raw={value} assetId={assetId} copy={false} />
            ) : typeof value === "string" ? (
              value
            ) : (
              <code>{JSON.stringify(value)}</code>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

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
      <p>
        Authentication failures, credential, policy and allowlist changes, signatures and refused requests, newest first. Entries are never
        changed or deleted.
      </p>
      <form onSubmit={filter} className="row" role="search">
        <TextField
          label="Action"
          value={input}
          onChange={(e) => setInput(e.target.value)}
          list="audit-actions"
          hint="Exact action name, e.g. auth.failed; empty: every action."
        />
        <datalist id="audit-actions">
          {COMMON_ACTIONS.map((a) => (
            <option key={a} value={a} />
          ))}
        </datalist>
        <div className="field">
          <button type="submit">Filter</button>
        </div>
      </form>
      <QueryView
        query={events}
        what="the audit log"
        errorTitle="Could not load the audit log"
        empty={(data) => data.events.length === 0 && (action ? `No "${action}" entries.` : "No entries yet.")}
      >
        {(data) => (
          <>
            <DataTable
              columns={COLUMNS}
              rows={data.events}
              rowKey={(event) => event.id}
              rowProps={() => ({ "data-testid": "audit-row" })}
            />
            <Pager pager={pager} page={data.page} />
          </>
        )}
      </QueryView>
    </>
  );
}
