import {
  advancePasskeyCounter,
  findLoginCandidate,
  findMemberPasskeyByCredentialId,
  findUserById,
  deleteSpentWebauthnChallenges,
  insertWebauthnChallenge,
  listMemberPasskeys,
  useWebauthnChallenge,
} from "@qc/db/queries";
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import type { Authenticator, LoginAccount } from "../auth/authenticator";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { recordLoginFailure } from "../identity/login-failure";
import { openSession, type LogInResult } from "../identity/open-session";
import { authenticationOptions, verifyAssertion } from "./ceremony";
import { PASSKEY_CHALLENGE_TTL_MS } from "./relying-party";

/** The login's first step when the tenant requires a passkey: no session yet, a challenge for the member's passkeys. */
export interface PasskeyLoginChallenge {
  passkeyRequired: true;
  challengeId: string;
  options: PublicKeyCredentialRequestOptionsJSON;
}

type Deps = Pick<ServiceDeps, "db" | "now" | "config"> & { authenticator: Authenticator };

/**
 * After the right password of a member whose tenant requires a passkey: the options for
 * `navigator.credentials.get()` naming the member's passkeys, and the id of a single-use
 * challenge. A member without a passkey cannot log in while the tenant requires one (409
 * PASSKEY_REQUIRED, answered only after the right password): an OWNER turns the requirement off
 * for the time they need to register one (docs/members.md, "Passkeys").
 */
export async function startPasskeyLogin(deps: Deps, user: { id: string; tenantId: string }): Promise<PasskeyLoginChallenge> {
  const passkeys = await listMemberPasskeys(deps.db, { tenantId: user.tenantId, userId: user.id });
  if (passkeys.length === 0)
    throw new AppError(
      "PASSKEY_REQUIRED",
      "your organisation requires a passkey at login and you have none: ask an OWNER to turn the requirement off while you register one",
    );
  const options = await authenticationOptions(deps.config, passkeys);
  const now = deps.now();
  await deleteSpentWebauthnChallenges(deps.db, { userId: user.id, now });
  const { id } = await insertWebauthnChallenge(deps.db, {
    tenantId: user.tenantId,
    userId: user.id,
    purpose: "LOGIN",
    challenge: options.challenge,
    expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS),
    createdAt: now,
  });
  return { passkeyRequired: true, challengeId: id, options };
}

const REFUSED = "the passkey step failed or expired: log in again";

/**
 * The login's second step: the browser's assertion for the challenge the password step issued.
 * The challenge is used up first (a replayed or retried answer finds it gone), the assertion is
 * verified by @simplewebauthn/server against the member's passkey (origin and RP ID from
 * PUBLIC_URL, signature, a counter that must grow when the authenticator keeps one), and the
 * counter moves in one conditional UPDATE, so a cloned authenticator's older counter and two
 * answers at once are refused. Locked-out sources and accounts are refused first; every refusal
 * is the same 401, counts towards both lockouts and is audited as `auth.failed`.
 */
export async function logInWithPasskey(
  deps: Deps,
  input: { challengeId: string; response: AuthenticationResponseJSON; ip: string; requestId?: string; userAgent?: string },
): Promise<LogInResult> {
  await deps.authenticator.refuseIfLockedOut(input.ip);
  const challenge = await useWebauthnChallenge(deps.db, { id: input.challengeId, purpose: "LOGIN", now: deps.now() });
  const user = challenge ? await findUserById(deps.db, { userId: challenge.userId }) : undefined;
  const account: LoginAccount | undefined = user ? { realm: "user", email: user.email } : undefined;
  const refuse = async (reason: string): Promise<never> => {
    await recordLoginFailure(deps.authenticator, input, { account, user, reason, via: "login_passkey" });
    throw new AppError("UNAUTHENTICATED", REFUSED);
  };
  if (!challenge || !user || !account) return refuse("passkey_challenge_unknown");
  await deps.authenticator.refuseIfLockedOut(input.ip, account);
  const passkey = await findMemberPasskeyByCredentialId(deps.db, {
    tenantId: challenge.tenantId,
    userId: challenge.userId,
    credentialId: input.response.id,
  });
  if (!passkey) return refuse("passkey_unknown");
  const newCounter = await verifyAssertion(deps.config, {
    expectedChallenge: challenge.challenge,
    response: input.response,
    passkey,
  });
  if (newCounter === undefined) return refuse("passkey_not_verified");
  const now = deps.now();
  if (
    !(await advancePasskeyCounter(deps.db, {
      tenantId: passkey.tenantId,
      id: passkey.id,
      from: passkey.counter,
      to: newCounter,
      usedAt: now,
    }))
  )
    return refuse("passkey_counter_moved");
  const candidate = await findLoginCandidate(deps.db, { email: user.email });
  if (!candidate || candidate.status !== "EMAIL_VERIFIED") return refuse("passkey_user_unavailable");
  return openSession(deps, candidate, input, { passkeyId: passkey.id });
}
