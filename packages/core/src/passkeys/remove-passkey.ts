import { deleteMemberPasskey, findTenantRequirePasskey, listMemberPasskeys } from "@qc/db/queries";
import { roleAllows } from "@qc/domain";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { actingMember } from "../members/acting-member";
import { toPasskeyRecord, type PasskeyRecord } from "./passkey-record";

/** The member's passkeys, newest first, without key material. */
export async function listPasskeys(deps: Pick<ServiceDeps, "db">, input: { tenantId: string; userId: string }): Promise<PasskeyRecord[]> {
  return (await listMemberPasskeys(deps.db, input)).map(toPasskeyRecord);
}

/**
 * Removes a member's passkey, audited as `passkey.removed`. A member removes their own; an OWNER
 * (`manage_owners`) may remove anyone's, e.g. a lost or stolen key (recovery: no email can do
 * it). While the tenant requires passkeys, a member cannot remove their own last one (409
 * PASSKEY_REQUIRED): they would have no way back in. A passkey of another member or tenant is 404.
 */
export async function removePasskey(
  deps: Pick<ServiceDeps, "db">,
  input: { tenantId: string; userId: string; passkeyId: string; actor: Actor },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const caller = await actingMember(tx, input.actor, input.tenantId);
    const own = caller?.userId === input.userId;
    if (!own && !(caller?.role && roleAllows(caller.role, "manage_owners")))
      throw new AppError("INSUFFICIENT_ROLE", "only an OWNER may remove another member's passkeys");
    const removed = await deleteMemberPasskey(tx, { tenantId: input.tenantId, userId: input.userId, id: input.passkeyId });
    if (!removed) throw new AppError("NOT_FOUND", "passkey not found");
    if (own && (await listMemberPasskeys(tx, input)).length === 0 && (await findTenantRequirePasskey(tx, input)))
      throw new AppError("PASSKEY_REQUIRED", "the tenant requires a passkey at login: register another before removing your last one");
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "passkey.removed",
      target: { type: "passkey", id: removed.id },
      details: { userId: input.userId, name: removed.name, byOwner: !own },
    });
  });
}
