import { describe, expect, it } from "vitest";
import { MAX_DELIVERY_ATTEMPTS, nextAttemptAt, RETRY_DELAYS_SECONDS, shouldDisableFailingEndpoint } from "./schedule";

/** mulberry32: a tiny seeded generator, so jitter is reproducible. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const now = new Date("2026-11-21T10:00:00.000Z");
const secondsAfterNow = (at: Date | null) => (at!.getTime() - now.getTime()) / 1000;

describe("nextAttemptAt", () => {
  it("follows CONTRACT §7: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then stops", () => {
    expect(RETRY_DELAYS_SECONDS).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(MAX_DELIVERY_ATTEMPTS).toBe(8);
    const middle = () => 0.5; // no jitter
    expect(RETRY_DELAYS_SECONDS.map((_, i) => secondsAfterNow(nextAttemptAt({ attemptsMade: i + 1, now, random: middle })))).toEqual([
      ...RETRY_DELAYS_SECONDS,
    ]);
    expect(nextAttemptAt({ attemptsMade: 8, now, random: middle })).toBeNull();
    expect(() => nextAttemptAt({ attemptsMade: 0, now })).toThrow(RangeError);
  });

  it("jitters each delay within ±10 %, reproducibly for a seed, and not always the same", () => {
    const run = (seed: number) => {
      const random = seeded(seed);
      return RETRY_DELAYS_SECONDS.map((_, i) => secondsAfterNow(nextAttemptAt({ attemptsMade: i + 1, now, random })));
    };
    const first = run(42);
    expect(run(42)).toEqual(first);
    expect(run(43)).not.toEqual(first);
    first.forEach((delay, i) => {
      const base = RETRY_DELAYS_SECONDS[i]!;
      expect(delay).toBeGreaterThanOrEqual(base * 0.9);
      expect(delay).toBeLessThanOrEqual(base * 1.1);
    });
    expect(first.some((delay, i) => delay !== RETRY_DELAYS_SECONDS[i])).toBe(true);
    expect(secondsAfterNow(nextAttemptAt({ attemptsMade: 2, now, random: () => 0 }))).toBe(270);
    expect(secondsAfterNow(nextAttemptAt({ attemptsMade: 2, now, random: () => 0.999999 }))).toBeCloseTo(330, 0);
  });

  it("honours Retry-After when it is later than the schedule, capped at 10 h", () => {
    const middle = () => 0.5;
    expect(secondsAfterNow(nextAttemptAt({ attemptsMade: 1, now, retryAfterSeconds: 120, random: middle }))).toBe(120);
    expect(secondsAfterNow(nextAttemptAt({ attemptsMade: 3, now, retryAfterSeconds: 120, random: middle }))).toBe(1800);
    expect(secondsAfterNow(nextAttemptAt({ attemptsMade: 1, now, retryAfterSeconds: 999_999, random: middle }))).toBe(36000);
    expect(secondsAfterNow(nextAttemptAt({ attemptsMade: 1, now, retryAfterSeconds: 0, random: middle }))).toBe(5);
    expect(nextAttemptAt({ attemptsMade: 8, now, retryAfterSeconds: 60 })).toBeNull();
  });
});

describe("shouldDisableFailingEndpoint", () => {
  it("disables only after 5 full days of failure", () => {
    const since = new Date("2026-11-16T10:00:00.000Z");
    expect(shouldDisableFailingEndpoint(null, now)).toBe(false);
    expect(shouldDisableFailingEndpoint(since, new Date(now.getTime() - 1))).toBe(false);
    expect(shouldDisableFailingEndpoint(since, now)).toBe(true);
    expect(shouldDisableFailingEndpoint(new Date("2026-11-20T10:00:00.000Z"), now)).toBe(false);
  });
});
