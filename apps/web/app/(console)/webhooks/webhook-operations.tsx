"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import type { WebhookEventType } from "../../../src/dashboard/router-types";
import { useTRPC } from "../../../src/dashboard/trpc";
import { WEBHOOK_EVENT_TYPES } from "../../../src/dashboard/vocabulary";
import { SelectField, TextField } from "../../_components/field";
import { ErrorNotice } from "../../_components/states";

/** `<input type="datetime-local">` wants local time without a zone: the instant as the browser's wall clock. */
function localInput(at: Date): string {
  const shifted = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}

/**
 * CONTRACT §18 from the dashboard: resend an endpoint's deliveries of a window of events (after
 * a receiver outage), and send it a simulated event of any catalog type.
 */
export function WebhookOperations({ webhookId, enabled }: { webhookId: string; enabled: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refreshDeliveries = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.list.queryKey() });
  const [since, setSince] = useState(() => localInput(new Date(Date.now() - 24 * 3600_000)));
  const [until, setUntil] = useState("");
  const [onlyFailed, setOnlyFailed] = useState(true);
  const [type, setType] = useState<WebhookEventType>(WEBHOOK_EVENT_TYPES[0]!);
  const onlyFailedId = useId();
  const resend = useMutation(trpc.webhooks.resend.mutationOptions({ onSuccess: () => void refreshDeliveries() }));
  const simulate = useMutation(trpc.webhooks.simulate.mutationOptions({ onSuccess: () => void refreshDeliveries() }));

  function submitResend(event: FormEvent) {
    event.preventDefault();
    resend.mutate({
      webhookId,
      since: new Date(since).toISOString(),
      ...(until ? { until: new Date(until).toISOString() } : {}),
      onlyFailed,
    });
  }
  function submitSimulate(event: FormEvent) {
    event.preventDefault();
    simulate.mutate({ webhookId, type });
  }

  return (
    <div className="webhook-operations">
      <form onSubmit={submitResend} aria-label="Resend deliveries">
        <TextField label="Resend events since" type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} required />
        <TextField
          label="Until"
          type="datetime-local"
          value={until}
          onChange={(e) => setUntil(e.target.value)}
          hint="Empty: now. At most 7 days after the start."
        />
        <p>
          <input id={onlyFailedId} type="checkbox" checked={onlyFailed} onChange={(e) => setOnlyFailed(e.target.checked)} />{" "}
          <label htmlFor={onlyFailedId}>Only deliveries that failed</label>
        </p>
        <button type="submit" className="secondary" disabled={resend.isPending || !enabled}>
          Resend deliveries
        </button>
      </form>
      {resend.isSuccess && (
        <p className="notice success" role="status">
          {resend.data.queued === 1 ? "1 delivery" : `${resend.data.queued} deliveries`} queued again, each with its original webhook-id.
        </p>
      )}
      <ErrorNotice error={resend.error} />
      <form onSubmit={submitSimulate} aria-label="Simulate an event">
        <SelectField label="Event type to simulate" value={type} onChange={(e) => setType(e.target.value as WebhookEventType)}>
          {WEBHOOK_EVENT_TYPES.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </SelectField>
        <button type="submit" className="secondary" disabled={simulate.isPending || !enabled}>
          Simulate event
        </button>
      </form>
      {simulate.isSuccess && (
        <p className="notice success" role="status">
          Simulated {simulate.data.type} event {simulate.data.eventId} queued for delivery.
        </p>
      )}
      <ErrorNotice error={simulate.error} />
    </div>
  );
}
