/**
 * BENCH_ROUNDS: on a shared machine one run's ratio can move by a third from one minute to the
 * next, so the benchmarks that compare servers run their targets several times in a row and
 * report each ratio's median over the rounds.
 */

/** The median (the mean of the middle two for an even count); NaN for none. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Named ratios of one round (null where a target of the ratio was not run). */
export type RatioMap = Record<string, number | null>;

/** Each ratio's median over the rounds (a round without the ratio does not count; null if none has it). */
export function medians(maps: RatioMap[]): RatioMap {
  return Object.fromEntries(
    Object.keys(maps[0] ?? {}).map((name) => {
      const known = maps.map((m) => m[name] ?? null).filter((v): v is number => v !== null);
      return [name, known.length === 0 ? null : median(known)];
    }),
  );
}
