import { findLoginCandidate, findUserById } from "@qc/db/queries";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import type { Authenticator, LoginAccount } from "../auth/authenticator";
import type { ServiceDeps } from "../deps/service-deps";
import { recordLoginFailure } from "../identity/login-failure";
import { openSession, type LogInResult } from "../identity/open-session";
import { memberPasskeys } from "./member-passkeys";
import { logInWithAnswer, startLogin, type PasskeyLoginChallenge } from "./passkey-realm";

export type { PasskeyLoginChallenge } from "./passkey-realm";

type Deps = Pick<ServiceDeps, "db" | "now" | "config"> & { authenticator: Authenticator };

/**
 * After the right password of a member whose tenant requires a passkey: the options for
 * `navigator.credentials.get()` naming the member's passkeys, and the id of a single-use
 * challenge. A member without a passkey cannot log in while the tenant requires one (409
 * PASSKEY_REQUIRED, answered only after the right password): an OWNER turns the requirement off
 * for the time they need to register one (docs/members.md, "Passkeys").
 */
export function startPasskeyLogin(deps: Deps, user: { id: string; tenantId: string }): Promise<PasskeyLoginChallenge> {
  return startLogin(
    deps,
    memberPasskeys,
    { tenantId: user.tenantId, userId: user.id },
    "your organisation requires a passkey at login and you have none: ask an OWNER to turn the requirement off while you register one",
  );
}

/**
 * The login's second step (`logInWithAnswer`: the challenge used up first, the assertion verified
 * against the member's passkey, the counter moved by one conditional UPDATE, lockouts checked
 * first). Every refusal is the same 401, counts towards both lockouts and is audited as
 * `auth.failed` (`via: "login_passkey"`); a member who can no longer log in (removed, unverified)
 * is refused too. A success is the usual session, its audit row naming the passkey.
 */
export function logInWithPasskey(
  deps: Deps,
  input: { challengeId: string; response: AuthenticationResponseJSON; ip: string; requestId?: string; userAgent?: string },
): Promise<LogInResult> {
  return logInWithAnswer(deps, memberPasskeys, input, {
    find: async (member) => {
      const user = await findUserById(deps.db, { userId: member.userId });
      return user && { user, account: { realm: "user", email: user.email } satisfies LoginAccount };
    },
    refused: (reason, found) =>
      recordLoginFailure(deps.authenticator, input, { account: found?.account, user: found?.user, reason, via: "login_passkey" }),
    open: async ({ user }, passkeyId, refuse) => {
      const candidate = await findLoginCandidate(deps.db, { email: user.email });
      if (!candidate || candidate.status !== "EMAIL_VERIFIED") return refuse("passkey_user_unavailable");
      return openSession(deps, candidate, input, { passkeyId });
    },
  });
}
