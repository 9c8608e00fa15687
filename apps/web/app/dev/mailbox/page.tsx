import { Mailbox } from "./mailbox";

export const metadata = { title: "Dev mailbox · Quantum Custody" };

/**
 * Development only. Whether this is production is the service's to say, at run time: the page
 * comes from a build that `./qc start` also serves in development, so it asks the mailbox API,
 * which answers 404 in production, and shows nothing of it then.
 */
export default function DevMailboxPage() {
  return (
    <main id="main" className="public" style={{ maxWidth: "60rem" }}>
      <h1>Dev mailbox</h1>
      <Mailbox />
    </main>
  );
}
