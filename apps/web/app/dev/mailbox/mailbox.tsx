"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { describeFailure } from "../../../src/dashboard/api-error";
import { useTRPC } from "../../../src/dashboard/trpc";
import { TextField } from "../../_components/field";
import { ErrorNotice, Loading } from "../../_components/states";

/** Text with its URLs as links (the verification link is the point of the page). */
function Linked({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g);
  return (
    <pre style={{ whiteSpace: "pre-wrap" }}>
      {parts.map((part, i) =>
        /^https?:\/\//.test(part) ? (
          <a key={i} href={part}>
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </pre>
  );
}

/** The address lives in the URL (`/dev/mailbox?to=…`), so a link or a reload shows the same mailbox. */
export function Mailbox() {
  const trpc = useTRPC();
  const [to, setTo] = useState("");
  const [shown, setShown] = useState("");
  useEffect(() => {
    const address = new URLSearchParams(window.location.search).get("to")?.trim() ?? "";
    setTo(address);
    setShown(address);
  }, []);
  const emails = useQuery({
    ...trpc.devMailbox.list.queryOptions({ to: shown, limit: 50 }),
    enabled: shown.includes("@"),
    retry: false,
    refetchInterval: 3_000,
  });
  const production = emails.error && describeFailure(emails.error).error === "NOT_FOUND";

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const address = to.trim();
    window.history.replaceState(null, "", `?to=${encodeURIComponent(address)}`);
    setShown(address);
  };

  if (production) {
    return (
      <p className="notice" role="status">
        This page does not exist in production: emails are sent over SMTP there.
      </p>
    );
  }
  return (
    <section>
      <p>
        Without <code>SMTP_URL</code> the service delivers its emails here instead of sending them. Enter an address to see its emails,
        newest first (the last 50). Mail sent over SMTP is never shown here. Not available in production.
      </p>
      <form onSubmit={submit} className="row">
        <TextField
          label="Email address"
          type="email"
          required
          value={to}
          onChange={(e) => setTo(e.target.value)}
          placeholder="alice@example.com"
        />
        <div className="field">
          <button type="submit">Show emails</button>
        </div>
      </form>
      {emails.error && <ErrorNotice error={emails.error} title="Could not load the mailbox" />}
      {shown.includes("@") && emails.isPending && <Loading what="emails" />}
      {shown && emails.data?.emails.length === 0 && (
        <p className="empty">
          No emails to {shown} in the dev outbox yet (the daemon delivers them within a few seconds; this list refreshes by itself).
        </p>
      )}
      {emails.data?.emails.map((email) => (
        <article key={email.id} data-testid="dev-email" className="panel">
          <h2>{email.subject}</h2>
          <p>
            To <strong>{email.to}</strong> · {new Date(email.sentAt).toLocaleString()}
          </p>
          <Linked text={email.text} />
        </article>
      ))}
    </section>
  );
}
