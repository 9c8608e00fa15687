import type { Database, Executor } from "@qc/db";
import { isUniqueViolation } from "@qc/db";
import type { WebauthnChallengePurpose } from "@qc/db/queries";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import type { Authenticator, LoginAccount } from "../auth/authenticator";
import type { ServiceConfig } from "../deps/service-config";
import { AppError } from "../errors";
import { authenticationOptions, registrationOptions, verifyAssertion, verifyRegistration, type StoredPasskey } from "./ceremony";
import { toPasskeyRecord, type PasskeyRecord } from "./passkey-record";
import { PASSKEY_CHALLENGE_TTL_MS } from "./relying-party";

/*
 * The passkey ceremonies' orchestration, whoever owns the passkeys (CONTRACT §14): a tenant's
 * member (the dashboard, `memberPasskeys`) or an operator (the console, `operatorPasskeys`). A
 * realm is only its own tables and words; the order of the steps — a challenge stored per
 * ceremony, used up before its answer is verified, the counter moved by one conditional UPDATE,
 * lockouts checked first and every login refusal alike — is this file's, once.
 */

/** A passkey row of either realm. */
export type RealmPasskey = StoredPasskey & { id: string; name: string; createdAt: Date; lastUsedAt: Date | null };

/** The tables of one realm of passkey owners (`Owner`: whatever names one, e.g. `{tenantId, userId}`). */
export interface PasskeyRealm<Owner> {
  /** The owner in messages: "a member", "an operator". */
  owner: string;
  /** The unique constraint on credential ids: a passkey registered twice is 409 CONFLICT. */
  credentialIdUnique: string;
  listPasskeys(db: Executor, owner: Owner): Promise<RealmPasskey[]>;
  findPasskey(db: Executor, owner: Owner, credentialId: string): Promise<RealmPasskey | undefined>;
  insertPasskey(db: Executor, owner: Owner, passkey: StoredPasskey & { name: string; createdAt: Date }): Promise<RealmPasskey>;
  /** Moves the counter from `from` to `to` only if it is still `from`: false when another answer moved it first. */
  advanceCounter(db: Executor, owner: Owner, change: { id: string; from: number; to: number; usedAt: Date }): Promise<boolean>;
  deleteSpentChallenges(db: Executor, owner: Owner, now: Date): Promise<void>;
  insertChallenge(
    db: Executor,
    owner: Owner,
    challenge: { purpose: WebauthnChallengePurpose; challenge: string; expiresAt: Date; createdAt: Date },
  ): Promise<{ id: string }>;
  /** Marks a live challenge used and answers it with its owner; `owner` given: only that owner's. */
  useChallenge(
    db: Executor,
    challenge: { id: string; purpose: WebauthnChallengePurpose; now: Date },
    owner?: Owner,
  ): Promise<{ owner: Owner; challenge: string } | undefined>;
}

/** At most this many passkeys per member or operator: enough for every device and a spare key or two. */
export const MAX_PASSKEYS_PER_MEMBER = 20;

type Deps = { db: Database; now(): Date; config: Pick<ServiceConfig, "publicUrl"> };

/** A new ceremony's single-use challenge (5 minutes); the owner's spent ones are deleted first. */
async function issueChallenge<Owner>(
  deps: Omit<Deps, "config">,
  realm: PasskeyRealm<Owner>,
  owner: Owner,
  purpose: WebauthnChallengePurpose,
  challenge: string,
): Promise<string> {
  const now = deps.now();
  await realm.deleteSpentChallenges(deps.db, owner, now);
  const { id } = await realm.insertChallenge(deps.db, owner, {
    purpose,
    challenge,
    expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS),
    createdAt: now,
  });
  return id;
}

/**
 * The first half of registering a passkey: the options for the browser's
 * `navigator.credentials.create()` with the owner's passkeys excluded, and the id of a
 * single-use challenge. `userHandle` (the owner's id) keeps one credential per owner on an authenticator.
 */
export async function startRegistration<Owner>(
  deps: Deps,
  realm: PasskeyRealm<Owner>,
  owner: Owner,
  user: { userName: string; userHandle: string },
): Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const existing = await realm.listPasskeys(deps.db, owner);
  if (existing.length >= MAX_PASSKEYS_PER_MEMBER)
    throw new AppError("CONFLICT", `${realm.owner} has at most ${MAX_PASSKEYS_PER_MEMBER} passkeys: remove one first`);
  const options = await registrationOptions(deps.config, { ...user, existing });
  return { challengeId: await issueChallenge(deps, realm, owner, "REGISTER", options.challenge), options };
}

/**
 * The second half: the challenge is used up first (a failed attempt cannot be retried with it), the
 * answer verified (`verifyRegistration`: 400 VALIDATION_FAILED), and the passkey stored with
 * `audit` in one transaction; a credential already registered is 409 CONFLICT.
 */
export async function finishRegistration<Owner>(
  deps: Deps,
  realm: PasskeyRealm<Owner>,
  owner: Owner,
  input: { challengeId: string; name: string; response: RegistrationResponseJSON },
  audit: (tx: Executor, passkey: RealmPasskey) => Promise<void>,
): Promise<PasskeyRecord> {
  const now = deps.now();
  const challenge = await realm.useChallenge(deps.db, { id: input.challengeId, purpose: "REGISTER", now }, owner);
  if (!challenge) throw new AppError("INVALID_TOKEN", "this registration expired or was already used: start again");
  const credential = await verifyRegistration(deps.config, { expectedChallenge: challenge.challenge, response: input.response });
  try {
    return await deps.db.transaction(async (tx) => {
      const row = await realm.insertPasskey(tx, owner, { ...credential, name: input.name, createdAt: now });
      await audit(tx, row);
      return toPasskeyRecord(row);
    });
  } catch (error) {
    if (isUniqueViolation(error, realm.credentialIdUnique))
      throw new AppError("CONFLICT", "this passkey is already registered", { cause: error });
    throw error;
  }
}

/** The login's first step when a passkey is required: no session yet, a challenge for the owner's passkeys. */
export interface PasskeyLoginChallenge {
  passkeyRequired: true;
  challengeId: string;
  options: PublicKeyCredentialRequestOptionsJSON;
}

/**
 * After the right password while a passkey is required: the options for
 * `navigator.credentials.get()` naming the owner's passkeys and a single-use challenge. Without
 * a passkey, 409 PASSKEY_REQUIRED with `noPasskey` (answered only after the right password).
 */
export async function startLogin<Owner>(
  deps: Deps,
  realm: PasskeyRealm<Owner>,
  owner: Owner,
  noPasskey: string,
): Promise<PasskeyLoginChallenge> {
  const passkeys = await realm.listPasskeys(deps.db, owner);
  if (passkeys.length === 0) throw new AppError("PASSKEY_REQUIRED", noPasskey);
  const options = await authenticationOptions(deps.config, passkeys);
  return { passkeyRequired: true, challengeId: await issueChallenge(deps, realm, owner, "LOGIN", options.challenge), options };
}

const REFUSED = "the passkey step failed or expired: log in again";

/** How one realm's login ends: whom a challenge names, how a refusal is counted and audited, how the session opens. */
export interface PasskeyLoginSteps<Owner, Found extends { account: LoginAccount }, Result> {
  /** The challenge's owner, with their account for the lockouts; undefined when they are gone. */
  find(owner: Owner): Promise<Found | undefined>;
  /** Counts the refusal towards the lockouts and audits it; the answer is then 401 UNAUTHENTICATED. */
  refused(reason: string, found: Found | undefined): Promise<void>;
  /** After a verified answer: the session, or `refuse(reason)` (e.g. the owner may no longer log in). */
  open(found: Found, passkeyId: string, refuse: (reason: string) => Promise<never>): Promise<Result>;
}

/**
 * The login's second step: the browser's assertion for the challenge the password step issued.
 * Locked-out sources are refused first, the challenge is used up (a replayed or retried answer
 * finds it gone), the owner's locked-out account refused, the assertion verified against the
 * owner's passkey (origin and RP ID from PUBLIC_URL, signature, a counter that must grow when the
 * authenticator keeps one), and the counter moved in one conditional UPDATE, so a cloned
 * authenticator's older counter and two answers at once are refused. Every refusal is the same
 * 401, through `steps.refused`.
 */
export async function logInWithAnswer<Owner, Found extends { account: LoginAccount }, Result>(
  deps: Deps & { authenticator: Pick<Authenticator, "refuseIfLockedOut"> },
  realm: PasskeyRealm<Owner>,
  input: { challengeId: string; response: AuthenticationResponseJSON; ip: string },
  steps: PasskeyLoginSteps<Owner, Found, Result>,
): Promise<Result> {
  await deps.authenticator.refuseIfLockedOut(input.ip);
  const challenge = await realm.useChallenge(deps.db, { id: input.challengeId, purpose: "LOGIN", now: deps.now() });
  const found = challenge ? await steps.find(challenge.owner) : undefined;
  const refuse = async (reason: string): Promise<never> => {
    await steps.refused(reason, found);
    throw new AppError("UNAUTHENTICATED", REFUSED);
  };
  if (!challenge || !found) return refuse("passkey_challenge_unknown");
  await deps.authenticator.refuseIfLockedOut(input.ip, found.account);
  const passkey = await realm.findPasskey(deps.db, challenge.owner, input.response.id);
  if (!passkey) return refuse("passkey_unknown");
  const newCounter = await verifyAssertion(deps.config, { expectedChallenge: challenge.challenge, response: input.response, passkey });
  if (newCounter === undefined) return refuse("passkey_not_verified");
  const advanced = await realm.advanceCounter(deps.db, challenge.owner, {
    id: passkey.id,
    from: passkey.counter,
    to: newCounter,
    usedAt: deps.now(),
  });
  if (!advanced) return refuse("passkey_counter_moved");
  return steps.open(found, passkey.id, refuse);
}
