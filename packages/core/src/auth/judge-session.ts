/**
 * The lifetime rule of every login session, the tenant dashboard's and the operators' console's:
 * a session ends when revoked, when idle past its sliding expiry, and in any case at its absolute
 * end however much it is used. Each use slides the expiry forward (never past the absolute end),
 * written back at most once a minute: every dashboard or console poll would otherwise write.
 */
export interface SessionLifetime {
  /** The sliding expiry: this long after the last use. */
  idleMs: number;
  /** The absolute end: this long after the login. */
  absoluteMs: number;
}

/** A session's expiry slides forward at most this often (one write per minute, not per request). */
const SESSION_TOUCH_MS = 60_000;

export interface SessionTimes {
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  revokedAt?: Date | null;
}

/** Whether the session is live at `now`; if so, the expiry to write back, when one is due. */
export type SessionStanding = { live: false } | { live: true; slideTo?: Date };

export function judgeSession(session: SessionTimes, now: Date, lifetime: SessionLifetime): SessionStanding {
  const absoluteEnd = session.createdAt.getTime() + lifetime.absoluteMs;
  if (session.revokedAt || session.expiresAt <= now || absoluteEnd <= now.getTime()) return { live: false };
  if (now.getTime() - session.lastSeenAt.getTime() <= SESSION_TOUCH_MS) return { live: true };
  return { live: true, slideTo: new Date(Math.min(now.getTime() + lifetime.idleMs, absoluteEnd)) };
}
