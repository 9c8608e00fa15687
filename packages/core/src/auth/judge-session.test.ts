import { describe, expect, it } from "vitest";
import { judgeSession } from "./judge-session";

const HOUR = 3600_000;
const lifetime = { idleMs: 8 * HOUR, absoluteMs: 24 * HOUR };
const login = new Date("2026-01-01T00:00:00Z");
const at = (ms: number) => new Date(login.getTime() + ms);

describe("judgeSession (the sliding + absolute lifetime of tenant and operator sessions)", () => {
  it("keeps a session used within the last minute without writing it back", () => {
    expect(judgeSession({ createdAt: login, lastSeenAt: at(HOUR), expiresAt: at(9 * HOUR) }, at(HOUR + 60_000), lifetime)).toEqual({
      live: true,
    });
  });

  it("slides the expiry forward once more than a minute has passed since the last write", () => {
    expect(judgeSession({ createdAt: login, lastSeenAt: at(HOUR), expiresAt: at(9 * HOUR) }, at(HOUR + 60_001), lifetime)).toEqual({
      live: true,
      slideTo: at(9 * HOUR + 60_001),
    });
  });

  it("never slides past the absolute end, and ends there however much it is used", () => {
    const polled = { createdAt: login, lastSeenAt: at(20 * HOUR), expiresAt: at(28 * HOUR) };
    expect(judgeSession(polled, at(22 * HOUR), lifetime)).toEqual({ live: true, slideTo: at(24 * HOUR) });
    expect(judgeSession(polled, at(24 * HOUR), lifetime)).toEqual({ live: false });
  });

  it("ends an idle session at its expiry, and a revoked one at once", () => {
    const session = { createdAt: login, lastSeenAt: at(HOUR), expiresAt: at(9 * HOUR) };
    expect(judgeSession(session, at(9 * HOUR), lifetime)).toEqual({ live: false });
    expect(judgeSession({ ...session, revokedAt: at(2 * HOUR) }, at(2 * HOUR), lifetime)).toEqual({ live: false });
  });
});
