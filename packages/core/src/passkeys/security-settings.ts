import { countMemberPasskeys, findTenantRequirePasskey, updateTenantRequirePasskey } from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { actingMember } from "../members/acting-member";

export interface SecuritySettings {
  /** Dashboard logins need a passkey after the password (CONTRACT §14). API keys are unaffected. */
  requirePasskey: boolean;
}

export async function getSecuritySettings(deps: Pick<ServiceDeps, "db">, input: { tenantId: string }): Promise<SecuritySettings> {
  return { requirePasskey: await findTenantRequirePasskey(deps.db, input) };
}

/**
 * Turns the passkey requirement on or off (the route needs `manage_owners`: an OWNER). Turning it
 * on needs the caller to have a passkey (409 PASSKEY_REQUIRED), so an OWNER cannot shut
 * themselves out; turning it off needs none, so an OWNER who lost every passkey can still do it
 * with a key they created. A change is audited as `settings.require_passkey_changed`.
 */
export async function updateSecuritySettings(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: { tenantId: string; actor: Actor; requirePasskey: boolean },
): Promise<SecuritySettings> {
  return deps.db.transaction(async (tx) => {
    if (input.requirePasskey) {
      const caller = await actingMember(tx, input.actor, input.tenantId);
      const passkeys = caller
        ? (await countMemberPasskeys(tx, { tenantId: input.tenantId, userIds: [caller.userId] })).get(caller.userId)
        : 0;
      if (!passkeys) throw new AppError("PASSKEY_REQUIRED", "register a passkey on /settings before requiring one at login");
    }
    const { before } = await updateTenantRequirePasskey(tx, { ...input, updatedAt: deps.now() });
    if (before !== input.requirePasskey)
      await auditAction(tx, input.actor, {
        tenantId: input.tenantId,
        action: "settings.require_passkey_changed",
        details: { before, after: input.requirePasskey },
      });
    return { requirePasskey: input.requirePasskey };
  });
}
