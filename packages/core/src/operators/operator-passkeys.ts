import type { Database } from "@qc/db";
import {
  deleteOperatorPasskey,
  findOperatorById,
  findRequireOperatorPasskey,
  listOperatorPasskeys,
  updateRequireOperatorPasskey,
} from "@qc/db/queries";
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { Authenticator } from "../auth/authenticator";
import type { ServiceConfig } from "../deps/service-config";
import { AppError } from "../errors";
import { finishRegistration, logInWithAnswer, startLogin, startRegistration, type PasskeyLoginChallenge } from "../passkeys/passkey-realm";
import { toPasskeyRecord, type PasskeyRecord } from "../passkeys/passkey-record";
import { openOperatorSession, type LogInOperatorResult } from "./open-operator-session";
import { operatorPasskeys } from "./operator-passkey-realm";
import { recordOperatorAudit } from "./record-operator-audit";

/*
 * Operators' passkeys (CONTRACT §14: "operators' console logins follow the same rule with their
 * own setting"): the members' ceremonies and their orchestration (passkeys/passkey-realm.ts) over
 * the operators' own tables (`operatorPasskeys`), and the service-wide `require_operator_passkey` setting. Audited in the operators' trail
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
  return startRegistration(deps, operatorPasskeys, { operatorId: operator.id }, { userName: operator.email, userHandle: operator.id });
}

/** The second half: the challenge is used up first, the answer verified, the passkey stored and audited `operator.passkey_added`. */
export function finishOperatorPasskeyRegistration(
  deps: Deps,
  input: { operatorId: string; challengeId: string; name: string; response: RegistrationResponseJSON } & Request,
): Promise<PasskeyRecord> {
  return finishRegistration(deps, operatorPasskeys, { operatorId: input.operatorId }, input, (tx, row) =>
    recordOperatorAudit(tx, {
      action: "operator.passkey_added",
      operatorId: input.operatorId,
      targetType: "operator_passkey",
      targetId: row.id,
      requestId: input.requestId,
      ip: input.ip,
      details: { name: input.name },
    }),
  );
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
export function startOperatorPasskeyLogin(deps: Deps, input: { operatorId: string }): Promise<PasskeyLoginChallenge> {
  return startLogin(
    deps,
    operatorPasskeys,
    { operatorId: input.operatorId },
    "console logins require a passkey and you have none: ask another operator to turn it off",
  );
}

/**
 * The console login's second step, as the dashboard's (`logInWithAnswer`: the challenge used up
 * first, the assertion verified, the counter moved by one conditional UPDATE, lockouts checked
 * first); every refusal, a disabled operator's included, the same 401, counted towards both
 * lockouts and audited `operator.login_failed`.
 */
export function logInOperatorWithPasskey(
  deps: Deps & { authenticator: Pick<Authenticator, "refuseIfLockedOut" | "countFailure"> },
  input: { challengeId: string; response: AuthenticationResponseJSON; ip: string; requestId?: string; userAgent?: string },
): Promise<LogInOperatorResult> {
  return logInWithAnswer(deps, operatorPasskeys, input, {
    find: async ({ operatorId }) => {
      const operator = await findOperatorById(deps.db, operatorId);
      return operator && { operator, account: { realm: "operator", email: operator.email } as const };
    },
    refused: async (reason, found) => {
      await deps.authenticator.countFailure(input.ip, found?.account);
      await recordOperatorAudit(deps.db, {
        action: "operator.login_failed",
        operatorId: null,
        requestId: input.requestId,
        ip: input.ip,
        details: { reason, operatorId: found?.operator.id ?? null },
      });
    },
    open: ({ operator }, passkeyId, refuse) =>
      operator.disabledAt ? refuse("disabled") : openOperatorSession(deps, operator, input, { passkeyId }),
  });
}
