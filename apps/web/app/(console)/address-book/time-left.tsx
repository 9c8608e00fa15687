"use client";

import { useEffect, useRef, useState } from "react";
import { timeLeft } from "../../../src/dashboard/time-left";

/**
 * A pending entry's countdown to `activatesAt`, ticking every second; once it is reached,
 * `onReached` runs once (the page reads the lists again, and the entry shows as ACTIVE).
 */
export function TimeLeft({ until, onReached }: { until: string; onReached: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  const reached = now >= new Date(until).getTime();
  const callback = useRef(onReached);
  callback.current = onReached;
  useEffect(() => {
    if (reached) {
      callback.current();
      return;
    }
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [reached]);
  return (
    <span data-testid="time-left" title={`Active from ${until}`}>
      {reached ? "activating…" : `active in ${timeLeft(until, now)}`}
    </span>
  );
}
