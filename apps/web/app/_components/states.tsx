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

/** What QueryView reads of a TanStack query: its data once there is some, and its error. */
export type QueryLike<T> = { data: T | undefined; error: unknown };

/**
 * A query's states in the order every page shows them: the error, else "Loading {what}…" until
 * there is data, else the `empty` text when `empty(data)` gives one, else the content.
 */
export function QueryView<T>({
  query,
  what,
  errorTitle,
  empty,
  children,
}: {
  query: QueryLike<T>;
  /** Names the data in the loading line: "Loading {what}…". */
  what: string;
  /** The error notice's title; none when omitted. */
  errorTitle?: string;
  /** The empty-state text for this data, or false/null when there is something to show. */
  empty?: (data: T) => ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.error) return <ErrorNotice error={query.error} title={errorTitle} />;
  if (query.data === undefined) return <Loading what={what} />;
  const emptyText = empty?.(query.data);
  if (emptyText) return <Empty>{emptyText}</Empty>;
  return <>{children(query.data)}</>;
}
