"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../src/dashboard/trpc";

/**
 * Outside production the service keeps emails in a dev outbox instead of sending them; this link
 * appears only when that mailbox answers (in production it is 404, and the link stays hidden).
 */
export function DevMailboxLink({ email }: { email: string }) {
  const trpc = useTRPC();
  const mailbox = useQuery({ ...trpc.devMailbox.list.queryOptions({ to: email, limit: 1 }), enabled: email.includes("@"), retry: false });
  if (!mailbox.data) return null;
  return (
    <p className="notice">
      Development: this service writes emails to its <a href={`/dev/mailbox?to=${encodeURIComponent(email)}`}>dev mailbox</a> instead of
      sending them.
    </p>
  );
}
