import { describe, expect, it } from "vitest";
import { relativeTime } from "./relative-time";

const NOW = Date.parse("2026-03-14T12:00:00Z");
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe("relative times", () => {
  it("say how long ago, in whole units rounded towards zero", () => {
    expect(relativeTime(ago(0), NOW)).toBe("just now");
    expect(relativeTime(ago(59), NOW)).toBe("just now");
    expect(relativeTime(ago(60), NOW)).toBe("1 minute ago");
    expect(relativeTime(ago(3 * 60 + 59), NOW)).toBe("3 minutes ago");
    expect(relativeTime(ago(59 * 60 + 59), NOW)).toBe("59 minutes ago");
    expect(relativeTime(ago(3600), NOW)).toBe("1 hour ago");
    expect(relativeTime(ago(47 * 3600), NOW)).toBe("1 day ago");
    expect(relativeTime(ago(45 * 86400), NOW)).toBe("1 month ago");
    expect(relativeTime(ago(800 * 86400), NOW)).toBe("2 years ago");
  });

  it("say how soon, for deadlines and expiries", () => {
    expect(relativeTime(ago(-30), NOW)).toBe("in less than a minute");
    expect(relativeTime(ago(-5 * 60), NOW)).toBe("in 5 minutes");
    expect(relativeTime(ago(-2 * 3600 - 1), NOW)).toBe("in 2 hours");
  });

  it("take what the API returns (RFC 3339) and refuse what is not an instant", () => {
    expect(relativeTime("2026-03-14T11:57:00.000Z", new Date(NOW))).toBe("3 minutes ago");
    expect(() => relativeTime("yesterday", NOW)).toThrow();
  });
});
