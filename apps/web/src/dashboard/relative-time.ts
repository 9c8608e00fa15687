/**
 * How long ago (or how soon) `at` is from `now`, as a person says it: `just now`, `3 minutes ago`,
 * `in 2 hours`, `5 days ago`. Whole units, rounded towards zero (59 minutes is `59 minutes ago`,
 * not `1 hour ago`); months are 30 days and years 365, which is close enough for a glance — the
 * exact instant is always beside it (the `<Time>` component's hover). English, like the rest of
 * the dashboard; a pure function of its arguments, so the same in a test on any machine.
 */
const UNITS = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
] as const satisfies readonly (readonly [Intl.RelativeTimeFormatUnit, number])[];

const FORMAT = new Intl.RelativeTimeFormat("en", { numeric: "always" });

export function relativeTime(at: Date | string, now: Date | number): string {
  const seconds = Math.trunc((new Date(at).getTime() - new Date(now).getTime()) / 1000);
  if (Number.isNaN(seconds)) throw new Error(`not an instant: ${String(at)}`);
  const distance = Math.abs(seconds);
  if (distance < 60) return seconds <= 0 ? "just now" : "in less than a minute";
  const [unit, size] = UNITS.find(([, size]) => distance >= size)!;
  return FORMAT.format(Math.sign(seconds) * Math.floor(distance / size), unit);
}
