"use client";

import { useSyncExternalStore } from "react";
import { relativeTime } from "../../src/dashboard/relative-time";

/**
 * The clock relative times are read against, in steps of this much (rounded up, so a past instant
 * never reads as future): "3 minutes ago" becomes "4 minutes ago" by itself.
 */
const TICK_MS = 5_000;
const tickNow = () => Math.ceil(Date.now() / TICK_MS) * TICK_MS;

// One timer for every <Time> on the page, started by the first and stopped by the last.
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;
function subscribe(listener: () => void) {
  listeners.add(listener);
  timer ??= setInterval(() => listeners.forEach((notify) => notify()), TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/**
 * A timestamp as a person reads it: "3 minutes ago", "in 2 hours"; the exact time (the reader's
 * locale and time zone, then the RFC 3339 value the API returned) on hover and in `dateTime`.
 * Rendered on the server (no clock to agree on), it shows the exact value until the page runs.
 */
export function Time({ at }: { at: string | null | undefined }) {
  const clock = useSyncExternalStore(subscribe, tickNow, () => null);
  if (!at) return <span className="muted">—</span>;
  const exact = new Date(at).toLocaleString();
  return (
    <time dateTime={at} title={`${exact} (${at})`}>
      {clock === null ? at : relativeTime(at, clock)}
    </time>
  );
}

/** When a failed delivery or job is tried again, under its status; nothing when none is planned. */
export function NextAttempt({ at }: { at: string | null }) {
  if (!at) return null;
  return (
    <div className="small muted">
      next attempt <Time at={at} />
    </div>
  );
}
