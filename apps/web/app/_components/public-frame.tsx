import type { ReactNode } from "react";

/** The frame of the pages a person sees before logging in. */
export function PublicFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="public">
      <a className="brand" href="/login">
        Quantum Custody
      </a>
      <main id="main">
        <h1>{title}</h1>
        {children}
      </main>
    </div>
  );
}
