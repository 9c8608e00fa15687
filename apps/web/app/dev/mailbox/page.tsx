import { notFound } from "next/navigation";
import { readWebEnv } from "../../../src/env";
import { Mailbox } from "./mailbox";

export const metadata = { title: "Dev mailbox · Quantum Custody" };
export const dynamic = "force-dynamic";

/** Development only: in production the page does not exist (and its API answers 404 too). */
export default function DevMailboxPage() {
  if (readWebEnv().NODE_ENV === "production") notFound();
  return (
    <main>
      <h1>Dev mailbox</h1>
      <p>
        Emails the service produced, newest first (the last 50). Without <code>SMTP_URL</code> this is where they are
        delivered; with it, they are also sent. Not available in production.
      </p>
      <Mailbox />
    </main>
  );
}
