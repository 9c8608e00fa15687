/**
 * The time left until `until`, to the second, as a countdown shows it: `23 h 59 min 58 s`,
 * `4 min 05 s`, `2 s`; the leading units that are zero are left out, the seconds always shown.
 * Rounded up, so the countdown reads `1 s` until the moment itself and `0 s` from then on (an
 * address-book entry is in the book exactly when now ≥ activatesAt, CONTRACT §16).
 */
export function timeLeft(until: Date | string, now: Date | number): string {
  const ms = new Date(until).getTime() - new Date(now).getTime();
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  if (hours > 0) return `${hours} h ${pad(minutes)} min ${pad(seconds)} s`;
  if (minutes > 0) return `${minutes} min ${pad(seconds)} s`;
  return `${seconds} s`;
}
