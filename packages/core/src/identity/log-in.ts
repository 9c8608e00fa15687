import { findLoginCandidate, insertSession } from "@qc/db/queries";
import type { TenantStatus } from "@qc/domain";
import { anonymousActor, auditAction, userActor } from "../audit/actor";
import { SESSION_TTL_MS, type Authenticator } from "../auth/authenticator";
import { generateSessionToken, hashToken } from "../auth/tokens";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { verifyAgainstDummyHash, verifyPassword } from "./passwords";

export interface LogInInput {
  /** Lower-cased and trimmed at the boundary. */
  email: string;
  password: string;
  ip: string;
  requestId?: string;
  userAgent?: string;
}

export interface LogInResult {
  /** `qs_` + 64 hex; returned here only, stored as its SHA-256. */
  token: string;
  expiresAt: string;
  user: { id: string; email: string; name: string | null };
  tenant: { id: string; name: string; status: TenantStatus };
}

/** One message for an unknown email and a wrong password: the answer does not tell them apart. */
const WRONG_CREDENTIALS = "invalid email or password";

/**
 * Dashboard login. A locked-out source (IPv6: its /64) or account is refused first, whatever the
 * password. Every attempt runs exactly one Argon2id verification (against a dummy hash when the
 * email is unknown), so an unknown email and a wrong password cost the same time and get the
 * same 401; both count towards the source's and the typed account's lockout (an unknown address
 * is counted like a known one, so a lock reveals nothing) and are audited with their reason,
 * never with the password.
 */
export async function logIn(
  deps: Pick<ServiceDeps, "db" | "now"> & { authenticator: Authenticator },
  input: LogInInput,
): Promise<LogInResult> {
  const account = { realm: "user", email: input.email } as const;
  await deps.authenticator.refuseIfLockedOut(input.ip, account);
  const user = await findLoginCandidate(deps.db, { email: input.email });
  const passwordMatches = user ? await verifyPassword(user.passwordHash, input.password) : await verifyAgainstDummyHash(input.password);
  if (!user || !passwordMatches) {
    await deps.authenticator.countFailure(input.ip, account);
    // The typed email is not kept for an unknown address: people type passwords into it.
    const actor = anonymousActor(input, user?.id ?? null);
    deps.authenticator.recordRefusal({
      action: "auth.failed",
      actorType: actor.type,
      actorId: actor.id,
      tenantId: user?.tenantId ?? null,
      requestId: actor.requestId ?? null,
      ip: actor.ip ?? null,
      details: { reason: user ? "wrong_password" : "unknown_email", counted: true, via: "login" },
    });
    throw new AppError("UNAUTHENTICATED", WRONG_CREDENTIALS);
  }
  if (user.status !== "EMAIL_VERIFIED") {
    throw new AppError("EMAIL_NOT_VERIFIED", "verify your email address first: follow the link we emailed, or ask for a new one");
  }
  const now = deps.now();
  const token = generateSessionToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await deps.db.transaction(async (tx) => {
    const session = await insertSession(tx, {
      tenantId: user.tenantId,
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt,
      lastSeenAt: now,
      // The service's clock, not the database's: the absolute lifetime counts from it.
      createdAt: now,
      ip: input.ip,
      userAgent: input.userAgent?.slice(0, 500) ?? null,
    });
    await auditAction(tx, userActor(user.id, input), {
      tenantId: user.tenantId,
      action: "auth.logged_in",
      target: { type: "session", id: session.id },
    });
  });
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    user: { id: user.id, email: user.email, name: user.name },
    tenant: { id: user.tenantId, name: user.tenantName, status: user.tenantStatus },
  };
}
