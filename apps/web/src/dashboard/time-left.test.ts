import { describe, expect, it } from "vitest";
import { timeLeft } from "./time-left";

describe("a countdown's time left", () => {
  const now = new Date("2026-11-25T12:00:00.000Z");
  const after = (ms: number) => new Date(now.getTime() + ms).toISOString();

  it("shows hours, minutes and seconds, leaving out the leading units that are zero", () => {
    expect(timeLeft(after(86_400_000), now)).toBe("24 h 00 min 00 s");
    expect(timeLeft(after(86_398_000), now)).toBe("23 h 59 min 58 s");
    expect(timeLeft(after(3_600_000 + 5_000), now)).toBe("1 h 00 min 05 s");
    expect(timeLeft(after(245_000), now)).toBe("4 min 05 s");
    expect(timeLeft(after(60_000), now)).toBe("1 min 00 s");
    expect(timeLeft(after(2_000), now)).toBe("2 s");
  });

  it("rounds up to the second, reads 0 s from the moment itself on, and takes a Date or a timestamp", () => {
    expect(timeLeft(after(1), now)).toBe("1 s");
    expect(timeLeft(after(1_001), now.getTime())).toBe("2 s");
    expect(timeLeft(after(0), now)).toBe("0 s");
    expect(timeLeft(after(-5_000), now)).toBe("0 s");
    expect(timeLeft(new Date(now.getTime() + 59_999), now)).toBe("1 min 00 s");
  });
});
