"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { WebhookDelivery, WebhookEndpoint, WebhookEventType } from "../../../src/dashboard/router-types";
import { useTRPC } from "../../../src/dashboard/trpc";
import { WEBHOOK_EVENT_TYPES } from "../../../src/dashboard/vocabulary";
import { DataTable, type Column } from "../../_components/data-table";
import { CheckboxGroup, FormError, TextAreaField, TextField } from "../../_components/field";
import { formFailure } from "../../_components/form-failure";
import { Pager, usePager } from "../../_components/pager";
import { SecretOnce } from "../../_components/secret-once";
import { ErrorNotice, QueryView } from "../../_components/states";
import { StatusBadge } from "../../_components/status-badge";
import { NextAttempt, Time } from "../../_components/time";
import { useSignedInMember } from "../../_components/use-signed-in-member";
import { WebhookOperations } from "./webhook-operations";

const EVENT_OPTIONS = WEBHOOK_EVENT_TYPES.map((type) => ({ value: type, label: type }));

export default function WebhooksPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pager = usePager();
  // Webhooks are `administer` (CONTRACT §14): other roles see the endpoints and their deliveries only.
  const { can } = useSignedInMember();
  const list = useQuery(trpc.webhooks.list.queryOptions({ limit: 25, cursor: pager.cursor }));
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);

  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<WebhookEventType[]>([]);
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: (endpoint) => {
        setSecret({ title: `Signing secret of ${endpoint.url}`, value: endpoint.secret });
        setUrl("");
        setDescription("");
        setEvents([]);
        void invalidate();
      },
    }),
  );
  const failure = formFailure(create.error, ["url", "events", "description"]);

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ url, ...(events.length ? { events } : {}), ...(description.trim() ? { description: description.trim() } : {}) });
  }

  return (
    <>
      <h1>Webhooks</h1>
      <p>
        Each event is POSTed to your endpoints, signed with the endpoint&apos;s secret (Standard Webhooks: <code>webhook-id</code>,{" "}
        <code>webhook-timestamp</code>, <code>webhook-signature</code>). Failed deliveries are retried for about a day and a half.
      </p>
      {secret && <SecretOnce title={secret.title} secret={secret.value} onDone={() => setSecret(null)} />}
      <QueryView
        query={list}
        what="webhooks"
        errorTitle="Could not load webhooks"
        empty={(data) => data.webhooks.length === 0 && "No webhook endpoints yet."}
      >
        {(data) => (
          <>
            {data.webhooks.map((endpoint) => (
              <Endpoint
                key={endpoint.id}
                endpoint={endpoint}
                onSecret={(value) => setSecret({ title: `New signing secret of ${endpoint.url}`, value })}
                onChanged={invalidate}
              />
            ))}
            <Pager pager={pager} page={data.page} />
          </>
        )}
      </QueryView>
      {can("administer") && (
        <section className="panel" aria-labelledby="create-webhook-heading">
          <h2 id="create-webhook-heading">Add an endpoint</h2>
          <form onSubmit={submit} noValidate>
            <TextField
              label="Endpoint URL"
              type="url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              required
              placeholder="https://hooks.example.com/quantum-custody"
              error={failure.field("url")}
              hint="https, reachable on the public internet; redirects are not followed."
            />
            <TextAreaField
              label="Description"
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              maxLength={500}
              error={failure.field("description")}
              hint="Optional."
            />
            <CheckboxGroup
              legend="Events"
              options={EVENT_OPTIONS}
              value={events}
              onChange={setEvents}
              error={failure.field("events")}
              hint="None ticked: every event type."
            />
            <FormError message={failure.form} />
            <button type="submit" disabled={create.isPending}>
              Create webhook
            </button>
          </form>
        </section>
      )}
    </>
  );
}

function Endpoint({
  endpoint,
  onSecret,
  onChanged,
}: {
  endpoint: WebhookEndpoint;
  onSecret: (secret: string) => void;
  onChanged: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const refreshDeliveries = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.list.queryKey() });
  const test = useMutation(
    trpc.webhooks.test.mutationOptions({
      onSuccess: () => {
        setOpen(true);
        void refreshDeliveries();
      },
    }),
  );
  const rotate = useMutation(
    trpc.webhooks.rotateSecret.mutationOptions({
      onSuccess: (e) => {
        onSecret(e.secret);
        onChanged();
      },
    }),
  );
  const toggle = useMutation(trpc.webhooks.update.mutationOptions({ onSuccess: onChanged }));
  const remove = useMutation(trpc.webhooks.delete.mutationOptions({ onSuccess: onChanged }));
  const enabled = endpoint.status === "ENABLED";
  const { can } = useSignedInMember();
  const administer = can("administer");
  return (
    <section className="panel" data-testid="webhook-endpoint" aria-label={`Webhook ${endpoint.url}`}>
      <h3 className="mono">{endpoint.url}</h3>
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={endpoint.status} />
          {endpoint.disabledReason && <> ({endpoint.disabledReason})</>}
          {endpoint.failingSince && (
            <span className="muted">
              {" "}
              · failing since <Time at={endpoint.failingSince} />
            </span>
          )}
        </dd>
        <dt>Events</dt>
        <dd>{endpoint.events.length === 0 ? "every event type" : endpoint.events.join(", ")}</dd>
        {endpoint.description && (
          <>
            <dt>Description</dt>
            <dd>{endpoint.description}</dd>
          </>
        )}
        <dt>Signature schemes</dt>
        <dd>{endpoint.signatureSchemes.join(", ")}</dd>
        {endpoint.publicKey && (
          <>
            <dt>Public key (v1a)</dt>
            <dd className="mono">{endpoint.publicKey}</dd>
          </>
        )}
        {endpoint.previousSecretExpiresAt && (
          <>
            <dt>Previous secret</dt>
            <dd>
              also signs until <Time at={endpoint.previousSecretExpiresAt} />
            </dd>
          </>
        )}
      </dl>
      <div className="actions">
        {administer && (
          <button
            type="button"
            className="secondary"
            onClick={() => test.mutate({ webhookId: endpoint.id })}
            disabled={test.isPending || !enabled}
          >
            Send test event
          </button>
        )}
        <button type="button" className="secondary" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
          {open ? "Hide deliveries" : "Show deliveries"}
        </button>
        {administer && (
          <>
            <button
              type="button"
              className="secondary"
              onClick={() =>
                window.confirm("Rotate the signing secret? The old one keeps signing for 24 hours.") &&
                rotate.mutate({ webhookId: endpoint.id })
              }
              disabled={rotate.isPending}
            >
              Rotate secret
            </button>
            <button
              type="button"
              className="secondary"
              onClick={() => toggle.mutate({ webhookId: endpoint.id, enabled: !enabled })}
              disabled={toggle.isPending}
            >
              {enabled ? "Disable endpoint" : "Enable endpoint"}
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => window.confirm(`Delete the endpoint ${endpoint.url}?`) && remove.mutate({ webhookId: endpoint.id })}
              disabled={remove.isPending}
            >
              Delete endpoint
            </button>
          </>
        )}
      </div>
      {test.isSuccess && (
        <p className="notice success" role="status">
          Test event {test.data.eventId} queued for delivery.
        </p>
      )}
      {[test.error, rotate.error, toggle.error, remove.error].map((error, i) => (
        <ErrorNotice key={i} error={error} />
      ))}
      {administer && <WebhookOperations webhookId={endpoint.id} enabled={enabled} />}
      {open && <Deliveries webhookId={endpoint.id} />}
    </section>
  );
}

function Deliveries({ webhookId }: { webhookId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pager = usePager();
  const { can } = useSignedInMember();
  const deliveries = useQuery({
    ...trpc.webhooks.deliveries.list.queryOptions({ webhookId, limit: 20, cursor: pager.cursor }),
    refetchInterval: 5_000,
  });
  const retry = useMutation(
    trpc.webhooks.deliveries.retry.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.list.queryKey() }),
    }),
  );
  const columns: Column<WebhookDelivery>[] = [
    { header: "Event", cell: (delivery) => delivery.eventType },
    {
      header: "Status",
      cell: (delivery) => (
        <>
          <StatusBadge status={delivery.status} />
          <NextAttempt at={delivery.nextAttemptAt} />
        </>
      ),
    },
    { header: "Attempts", cell: (delivery) => delivery.attemptCount },
    {
      header: "Last response",
      cell: (delivery) => {
        const last = delivery.attempts.at(-1);
        return (
          <>
            {delivery.lastStatusCode !== null ? `HTTP ${delivery.lastStatusCode}` : (delivery.lastError ?? "—")}
            {last?.responseExcerpt && <pre className="small">{last.responseExcerpt.slice(0, 300)}</pre>}
          </>
        );
      },
    },
    { header: "Created", cell: (delivery) => <Time at={delivery.createdAt} /> },
    {
      header: "Actions",
      cell: (delivery) =>
        delivery.status === "FAILED" &&
        can("administer") && (
          <button
            type="button"
            className="secondary small"
            onClick={() => retry.mutate({ deliveryId: delivery.id })}
            disabled={retry.isPending}
          >
            Retry delivery
          </button>
        ),
    },
  ];
  return (
    <QueryView
      query={deliveries}
      what="deliveries"
      errorTitle="Could not load deliveries"
      empty={(data) => data.deliveries.length === 0 && "No deliveries yet."}
    >
      {(data) => (
        <>
          <DataTable
            columns={columns}
            rows={data.deliveries}
            rowKey={(delivery) => delivery.id}
            rowProps={() => ({ "data-testid": "webhook-delivery" })}
          />
          <ErrorNotice error={retry.error} title="Could not retry" />
          <Pager pager={pager} page={data.page} />
        </>
      )}
    </QueryView>
  );
}
