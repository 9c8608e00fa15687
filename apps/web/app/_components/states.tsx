"use client";

import type { ReactNode } from "react";
import { describeFailure } from "../../src/dashboard/api-error";

/** A loading line that screen readers announce once. */
export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

/** An API failure in words, with the contract's error name and the request id for support. */
export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const failure = describeFailure(error);
  return (
    <div className="notice error" role="alert">
      {title && <strong>{title}: </strong>}
      {failure.message}
      {failure.error !== "NETWORK" && (
        <span className="muted small">
          {" "}
          ({failure.error}
          {failure.requestId ? `, request ${failure.requestId}` : ""})
        </span>
      )}
      {failure.retryAfterSeconds !== null && <span> Try again in {failure.retryAfterSeconds} s.</span>}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** The three states of a query, then its content. */
export function QueryState<T>({ query, what, children }: { query: { data: T | undefined; error: unknown; isPending: boolean }; what: string; children: (data: T) => ReactNode }) {
  if (query.error) return <ErrorNotice error={query.error} title={`Could not load ${what}`} />;
  if (query.isPending || query.data === undefined) return <Loading what={what} />;
  return <>{children(query.data)}</>;
}
