"use client";

import { useCallback, useEffect, useState, type FormEvent } from "react";

import type { DevMailboxEmail as Email } from "@qc/core";

/** tRPC GET as the tRPC client sends it: the input as superjson in ?input=. */
async function listEmails(to: string): Promise<Email[]> {
  const input = encodeURIComponent(JSON.stringify({ json: { limit: 50, ...(to ? { to } : {}) } }));
  const res = await fetch(`/api/trpc/devMailbox.list?input=${input}`, { cache: "no-store" });
  const body = (await res.json()) as { result?: { data: { json: { emails: Email[] } } }; error?: { json: { message: string } } };
  if (!res.ok || !body.result) throw new Error(body.error?.json.message ?? `HTTP ${res.status}`);
  return body.result.data.json.emails;
}

/** Text with its URLs as links (the verification link is the point of the page). */
function Linked({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g);
  return (
    <pre style={{ whiteSpace: "pre-wrap" }}>
      {parts.map((part, i) => (/^https?:\/\//.test(part) ? <a key={i} href={part}>{part}</a> : part))}
    </pre>
  );
}

export function Mailbox() {
  const [to, setTo] = useState("");
  const [emails, setEmails] = useState<Email[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const load = useCallback((filter: string) => {
    setFailure(null);
    listEmails(filter).then(setEmails, (e: Error) => setFailure(e.message));
  }, []);
  useEffect(() => load(""), [load]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    load(to.trim());
  };
  return (
    <section>
      <form onSubmit={submit}>
        <label>
          Recipient <input type="email" value={to} onChange={(e) => setTo(e.target.value)} placeholder="all recipients" />
        </label>{" "}
        <button type="submit">Refresh</button>
      </form>
      {failure && <p role="alert">Could not load the mailbox: {failure}</p>}
      {emails === null && !failure && <p>Loading…</p>}
      {emails?.length === 0 && <p>No emails yet.</p>}
      {emails?.map((email) => (
        <article key={email.id} data-testid="dev-email">
          <h2>{email.subject}</h2>
          <p>
            To <strong>{email.to}</strong> · {new Date(email.createdAt).toLocaleString()} ·{" "}
            {email.sentAt ? `delivered (${email.transport})` : "waiting for the daemon"}
          </p>
          <Linked text={email.text} />
        </article>
      ))}
    </section>
  );
}
