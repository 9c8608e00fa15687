import { findUserById } from "@qc/db/queries";
import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { memberPasskeys } from "./member-passkeys";
import { finishRegistration, startRegistration } from "./passkey-realm";
import type { PasskeyRecord } from "./passkey-record";

export { MAX_PASSKEYS_PER_MEMBER } from "./passkey-realm";

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
  // The user handle: the member's id, so an authenticator keeps one credential per member.
  return startRegistration(deps, memberPasskeys, input, { userName: user.email, userHandle: user.id });
}

/**
 * The second half: the browser's answer, verified (`verifyRegistration`) against the challenge
 * (used up first, so a failed attempt cannot be retried with it), PUBLIC_URL's origin and RP ID.
 * The passkey is stored with its counter and audited as `passkey.added`.
 */
export function finishPasskeyRegistration(
  deps: Deps,
  input: { tenantId: string; userId: string; actor: Actor; challengeId: string; name: string; response: RegistrationResponseJSON },
): Promise<PasskeyRecord> {
  return finishRegistration(deps, memberPasskeys, { tenantId: input.tenantId, userId: input.userId }, input, (tx, row) =>
    auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "passkey.added",
      target: { type: "passkey", id: row.id },
      details: { userId: input.userId, name: input.name },
    }),
  );
}
