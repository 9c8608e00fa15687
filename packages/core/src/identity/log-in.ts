import { findLoginCandidate, findTenantRequirePasskey } from "@qc/db/queries";
import type { Authenticator } from "../auth/authenticator";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { startPasskeyLogin, type PasskeyLoginChallenge } from "../passkeys/log-in-with-passkey";
import { recordLoginFailure } from "./login-failure";
import { openSession, type LogInResult } from "./open-session";
import { verifyAgainstDummyHash, verifyPassword } from "./passwords";

export interface LogInInput {
  /** Lower-cased and trimmed at the boundary. */
  email: string;
  password: string;
  ip: string;
  requestId?: string;
  userAgent?: string;
}

export type { LogInResult };

/** One message for an unknown email and a wrong password: the answer does not tell them apart. */
const WRONG_CREDENTIALS = "invalid email or password";

/**
 * Dashboard login. A locked-out source (IPv6: its /64) or account is refused first, whatever the
 * password. Every attempt runs exactly one Argon2id verification (against a dummy hash when the
 * email is unknown), so an unknown email and a wrong password cost the same time and get the
 * same 401; both count towards the source's and the typed account's lockout (an unknown address
 * is counted like a known one, so a lock reveals nothing) and are audited with their reason,
 * never with the password. When the user's tenant requires a passkey, the right password gets no
 * session but the passkey step's challenge (`logInWithPasskey` ends it with the session).
 */
export async function logIn(
  deps: Pick<ServiceDeps, "db" | "now" | "config"> & { authenticator: Authenticator },
  input: LogInInput,
): Promise<LogInResult | PasskeyLoginChallenge> {
  const account = { realm: "user", email: input.email } as const;
  await deps.authenticator.refuseIfLockedOut(input.ip, account);
  const user = await findLoginCandidate(deps.db, { email: input.email });
  const passwordMatches = user ? await verifyPassword(user.passwordHash, input.password) : await verifyAgainstDummyHash(input.password);
  if (!user || !passwordMatches) {
    await recordLoginFailure(deps.authenticator, input, {
      account,
      user,
      reason: user ? "wrong_password" : "unknown_email",
      via: "login",
    });
    throw new AppError("UNAUTHENTICATED", WRONG_CREDENTIALS);
  }
  if (user.status !== "EMAIL_VERIFIED") {
    throw new AppError("EMAIL_NOT_VERIFIED", "verify your email address first: follow the link we emailed, or ask for a new one");
  }
  if (await findTenantRequirePasskey(deps.db, { tenantId: user.tenantId })) return startPasskeyLogin(deps, user);
  return openSession(deps, user, input);
}
