import type { Database } from "@qc/db";
import { isUniqueViolation } from "@qc/db";
import {
  advanceOperatorPasskeyCounter,
  deleteOperatorPasskey,
  deleteSpentOperatorWebauthnChallenges,
  findOperatorById,
  findOperatorPasskeyByCredentialId,
  findRequireOperatorPasskey,
  insertOperatorPasskey,
  insertOperatorWebauthnChallenge,
  listOperatorPasskeys,
  updateRequireOperatorPasskey,
  useOperatorWebauthnChallenge,
} from "@qc/db/queries";
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { Authenticator } from "../auth/authenticator";
import type { ServiceConfig } from "../deps/service-config";
import { AppError } from "../errors";
import { authenticationOptions, registrationOptions, verifyAssertion, verifyRegistration } from "../passkeys/ceremony";
import type { PasskeyLoginChallenge } from "../passkeys/log-in-with-passkey";
import { toPasskeyRecord, type PasskeyRecord } from "../passkeys/passkey-record";
import { PASSKEY_CHALLENGE_TTL_MS } from "../passkeys/relying-party";
import { MAX_PASSKEYS_PER_MEMBER } from "../passkeys/register-passkey";
import { openOperatorSession, type LogInOperatorResult } from "./open-operator-session";
import { recordOperatorAudit } from "./record-operator-audit";

/*
 * Operators' passkeys (CONTRACT §14: "operators' console logins follow the same rule with their
 * own setting"): the members' ceremonies (passkeys/ceremony.ts) over the operators' own tables,
 * and the service-wide `require_operator_passkey` setting. Audited in the operators' trail
 * (no tenant, actor type `operator`).
 */

type Deps = { db: Database; now(): Date; config: Pick<ServiceConfig, "publicUrl"> };
interface Request {
  requestId?: string;
  ip?: string;
}

export async function listOwnOperatorPasskeys(deps: { db: Database }, input: { operatorId: string }): Promise<PasskeyRecord[]> {
  return (await listOperatorPasskeys(deps.db, input)).map(toPasskeyRecord);
}

/** The first half of registering a passkey for the signed-in operator: the options and a single-use challenge. */
export async function startOperatorPasskeyRegistration(
  deps: Deps,
  input: { operatorId: string },
): Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const operator = await findOperatorById(deps.db, input.operatorId);
  if (!operator) throw new AppError("NOT_FOUND", "operator not found");
  const existing = await listOperatorPasskeys(deps.db, input);
  if (existing.length >= MAX_PASSKEYS_PER_MEMBER)
    throw new AppError("CONFLICT", `an operator has at most ${MAX_PASSKEYS_PER_MEMBER} passkeys: remove one first`);
  const options = await registrationOptions(deps.config, { userName: operator.email, userHandle: operator.id, existing });
  const now = deps.now();
  await deleteSpentOperatorWebauthnChallenges(deps.db, { operatorId: operator.id, now });
  const { id } = await insertOperatorWebauthnChallenge(deps.db, {
    operatorId: operator.id,
    purpose: "REGISTER",
    challenge: options.challenge,
    expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS),
    createdAt: now,
  });
  return { challengeId: id, options };
}

/** The second half: the challenge is used up first, the answer verified, the passkey stored and audited `operator.passkey_added`. */
export async function finishOperatorPasskeyRegistration(
  deps: Deps,
  input: { operatorId: string; challengeId: string; name: string; response: RegistrationResponseJSON } & Request,
): Promise<PasskeyRecord> {
  const now = deps.now();
  const challenge = await useOperatorWebauthnChallenge(deps.db, {
    id: input.challengeId,
    purpose: "REGISTER",
    now,
    operatorId: input.operatorId,
  });
  if (!challenge) throw new AppError("INVALID_TOKEN", "this registration expired or was already used: start again");
  const credential = await verifyRegistration(deps.config, { expectedChallenge: challenge.challenge, response: input.response });
  try {
    return await deps.db.transaction(async (tx) => {
      const row = await insertOperatorPasskey(tx, { operatorId: input.operatorId, ...credential, name: input.name, createdAt: now });
      await recordOperatorAudit(tx, {
        action: "operator.passkey_added",
        operatorId: input.operatorId,
        targetType: "operator_passkey",
        targetId: row.id,
        requestId: input.requestId,
        ip: input.ip,
        details: { name: input.name },
      });
      return toPasskeyRecord(row);
    });
  } catch (error) {
    if (isUniqueViolation(error, "operator_passkeys_credential_id_unique"))
      throw new AppError("CONFLICT", "this passkey is already registered", { cause: error });
    throw error;
  }
}

/**
 * Removes the operator's own passkey, audited `operator.passkey_removed`. While the service
 * requires passkeys, not their last one (409 PASSKEY_REQUIRED): they would have no way back in.
 */
export async function removeOwnOperatorPasskey(
  deps: { db: Database },
  input: { operatorId: string; passkeyId: string } & Request,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const removed = await deleteOperatorPasskey(tx, { operatorId: input.operatorId, id: input.passkeyId });
    if (!removed) throw new AppError("NOT_FOUND", "passkey not found");
    if ((await listOperatorPasskeys(tx, input)).length === 0 && (await findRequireOperatorPasskey(tx)))
      throw new AppError("PASSKEY_REQUIRED", "console logins require a passkey: register another before removing your last one");
    await recordOperatorAudit(tx, {
      action: "operator.passkey_removed",
      operatorId: input.operatorId,
      targetType: "operator_passkey",
      targetId: removed.id,
      requestId: input.requestId,
      ip: input.ip,
      details: { name: removed.name },
    });
  });
}

export interface OperatorSecuritySettings {
  /** Console logins need a passkey after the password. */
  requireOperatorPasskey: boolean;
}

export async function getOperatorSecuritySettings(deps: { db: Database }): Promise<OperatorSecuritySettings> {
  return { requireOperatorPasskey: await findRequireOperatorPasskey(deps.db) };
}

/**
 * Turns the console's passkey requirement on or off: any operator (`operatorId`), or the command
 * line's recovery for operators locked out without a passkey (`operatorId: null`, audited with
 * actor `system`/`cli`, off only: `scripts/create-operator.ts --disable-passkey-requirement`).
 * Turning it on needs the caller to have a passkey (409 PASSKEY_REQUIRED); a change is audited
 * `operator.settings.require_operator_passkey_changed`.
 */
export async function updateOperatorSecuritySettings(
  deps: { db: Database; now(): Date },
  input: { operatorId: string | null; requireOperatorPasskey: boolean } & Request,
): Promise<OperatorSecuritySettings> {
  const { operatorId } = input;
  return deps.db.transaction(async (tx) => {
    if (input.requireOperatorPasskey && (operatorId === null || (await listOperatorPasskeys(tx, { operatorId })).length === 0))
      throw new AppError("PASSKEY_REQUIRED", "register a passkey before requiring one at the console's login");
    const { before } = await updateRequireOperatorPasskey(tx, { value: input.requireOperatorPasskey, updatedAt: deps.now() });
    if (before !== input.requireOperatorPasskey)
      await recordOperatorAudit(tx, {
        action: "operator.settings.require_operator_passkey_changed",
        operatorId,
        system: operatorId === null ? "cli" : undefined,
        requestId: input.requestId,
        ip: input.ip,
        details: { before, after: input.requireOperatorPasskey },
      });
    return { requireOperatorPasskey: input.requireOperatorPasskey };
  });
}

/**
 * After the right password while the service requires a passkey: the options naming the
 * operator's passkeys and a single-use challenge. An operator without one cannot log in (409
 * PASSKEY_REQUIRED, answered only after the right password): another operator turns the
 * requirement off, or `scripts/create-operator.ts` (docs/members.md, "Passkeys").
 */
export async function startOperatorPasskeyLogin(deps: Deps, input: { operatorId: string }): Promise<PasskeyLoginChallenge> {
  const passkeys = await listOperatorPasskeys(deps.db, input);
  if (passkeys.length === 0)
    throw new AppError("PASSKEY_REQUIRED", "console logins require a passkey and you have none: ask another operator to turn it off");
  const options = await authenticationOptions(deps.config, passkeys);
  const now = deps.now();
  await deleteSpentOperatorWebauthnChallenges(deps.db, { operatorId: input.operatorId, now });
  const { id } = await insertOperatorWebauthnChallenge(deps.db, {
    operatorId: input.operatorId,
    purpose: "LOGIN",
    challenge: options.challenge,
    expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS),
    createdAt: now,
  });
  return { passkeyRequired: true, challengeId: id, options };
}

const REFUSED = "the passkey step failed or expired: log in again";

/**
 * The console login's second step, as the dashboard's (`logInWithPasskey`): the challenge is used
 * up first, the assertion verified by the shared ceremony, the counter moved by one conditional
 * UPDATE; lockouts checked first, every refusal the same 401, counted towards both lockouts and
 * audited `operator.login_failed`.
 */
export async function logInOperatorWithPasskey(
  deps: Deps & { authenticator: Pick<Authenticator, "refuseIfLockedOut" | "countFailure"> },
  input: { challengeId: string; response: AuthenticationResponseJSON; ip: string; requestId?: string; userAgent?: string },
): Promise<LogInOperatorResult> {
  await deps.authenticator.refuseIfLockedOut(input.ip);
  const challenge = await useOperatorWebauthnChallenge(deps.db, { id: input.challengeId, purpose: "LOGIN", now: deps.now() });
  const operator = challenge ? await findOperatorById(deps.db, challenge.operatorId) : undefined;
  const account = operator ? ({ realm: "operator", email: operator.email } as const) : undefined;
  const refuse = async (reason: string): Promise<never> => {
    await deps.authenticator.countFailure(input.ip, account);
    await recordOperatorAudit(deps.db, {
      action: "operator.login_failed",
      operatorId: null,
      requestId: input.requestId,
      ip: input.ip,
      details: { reason, operatorId: operator?.id ?? null },
    });
    throw new AppError("UNAUTHENTICATED", REFUSED);
  };
  if (!challenge || !operator || !account) return refuse("passkey_challenge_unknown");
  await deps.authenticator.refuseIfLockedOut(input.ip, account);
  const passkey = await findOperatorPasskeyByCredentialId(deps.db, { operatorId: operator.id, credentialId: input.response.id });
  if (!passkey) return refuse("passkey_unknown");
  const newCounter = await verifyAssertion(deps.config, { expectedChallenge: challenge.challenge, response: input.response, passkey });
  if (newCounter === undefined) return refuse("passkey_not_verified");
  const now = deps.now();
  if (
    !(await advanceOperatorPasskeyCounter(deps.db, {
      operatorId: operator.id,
      id: passkey.id,
      from: passkey.counter,
      to: newCounter,
      usedAt: now,
    }))
  )
    return refuse("passkey_counter_moved");
  if (operator.disabledAt) return refuse("disabled");
  return openOperatorSession(deps, operator, input, { passkeyId: passkey.id });
}
