import { isUniqueViolation } from "@qc/db";
import {
  deleteSpentWebauthnChallenges,
  findUserById,
  insertPasskey,
  insertWebauthnChallenge,
  listMemberPasskeys,
  useWebauthnChallenge,
} from "@qc/db/queries";
import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { toPasskeyRecord, type PasskeyRecord } from "./passkey-record";
import { registrationOptions, verifyRegistration } from "./ceremony";
import { PASSKEY_CHALLENGE_TTL_MS } from "./relying-party";

/** At most this many passkeys per member: enough for every device and a spare key or two. */
export const MAX_PASSKEYS_PER_MEMBER = 20;

type Deps = Pick<ServiceDeps, "db" | "now" | "config">;

/**
 * The first half of registering a passkey for the signed-in member: the options for the browser's
 * `navigator.credentials.create()` (@simplewebauthn/browser's `startRegistration`), with the
 * member's passkeys excluded, and the id of their single-use challenge.
 */
export async function startPasskeyRegistration(
  deps: Deps,
  input: { tenantId: string; userId: string },
): Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const user = await findUserById(deps.db, { userId: input.userId });
  if (!user || user.tenantId !== input.tenantId) throw new AppError("NOT_FOUND", "member not found");
  const existing = await listMemberPasskeys(deps.db, input);
  if (existing.length >= MAX_PASSKEYS_PER_MEMBER)
    throw new AppError("CONFLICT", `a member has at most ${MAX_PASSKEYS_PER_MEMBER} passkeys: remove one first`);
  const options = await registrationOptions(deps.config, {
    userName: user.email,
    // The user handle: the member's id, so an authenticator keeps one credential per member.
    userHandle: user.id,
    existing,
  });
  const now = deps.now();
  await deleteSpentWebauthnChallenges(deps.db, { userId: input.userId, now });
  const { id } = await insertWebauthnChallenge(deps.db, {
    tenantId: input.tenantId,
    userId: input.userId,
    purpose: "REGISTER",
    challenge: options.challenge,
    expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS),
    createdAt: now,
  });
  return { challengeId: id, options };
}

/**
 * The second half: the browser's answer, verified (`verifyRegistration`) against the challenge
 * (used up first, so a failed attempt cannot be retried with it), PUBLIC_URL's origin and RP ID.
 * The passkey is stored with its counter and audited as `passkey.added`.
 */
export async function finishPasskeyRegistration(
  deps: Deps,
  input: { tenantId: string; userId: string; actor: Actor; challengeId: string; name: string; response: RegistrationResponseJSON },
): Promise<PasskeyRecord> {
  const now = deps.now();
  const challenge = await useWebauthnChallenge(deps.db, {
    id: input.challengeId,
    purpose: "REGISTER",
    now,
    tenantId: input.tenantId,
    userId: input.userId,
  });
  if (!challenge) throw new AppError("INVALID_TOKEN", "this registration expired or was already used: start again");
  const credential = await verifyRegistration(deps.config, { expectedChallenge: challenge.challenge, response: input.response });
  try {
    return await deps.db.transaction(async (tx) => {
      const row = await insertPasskey(tx, {
        tenantId: input.tenantId,
        userId: input.userId,
        ...credential,
        name: input.name,
        createdAt: now,
      });
      await auditAction(tx, input.actor, {
        tenantId: input.tenantId,
        action: "passkey.added",
        target: { type: "passkey", id: row.id },
        details: { userId: input.userId, name: input.name },
      });
      return toPasskeyRecord(row);
    });
  } catch (error) {
    if (isUniqueViolation(error, "passkeys_credential_id_unique"))
      throw new AppError("CONFLICT", "this passkey is already registered", { cause: error });
    throw error;
  }
}
