import type { Executor } from "@qc/db";
import { roleAllows, type MemberRole } from "@qc/domain";
import type { Actor } from "../audit/actor";
import { AppError } from "../errors";
import { actingMember } from "./acting-member";

/**
 * A rule about another member that a route's action cannot express (CONTRACT §14): inviting,
 * changing or removing a member needs `manage_members`, and `manage_owners` when an OWNER is
 * made, invited, unmade or removed. Reads the caller's role now, in the caller's transaction; a
 * tool (`system`) is not asked. `what` finishes the refusal's sentence ("a VIEWER may not …").
 * Returns the calling member's user id (undefined for a tool).
 */
export async function assertMayManageMember(
  tx: Executor,
  actor: Actor,
  tenantId: string,
  rule: { ownership: boolean; what: string },
): Promise<string | undefined> {
  if (actor.type === "system") return undefined;
  const caller = await actingMember(tx, actor, tenantId);
  const needed = rule.ownership ? "manage_owners" : "manage_members";
  if (!caller?.role || !roleAllows(caller.role, needed))
    throw new AppError("INSUFFICIENT_ROLE", `a ${caller?.role ?? "caller without a role"} may not ${rule.what}`);
  return caller.userId;
}

/** Whether a change touches ownership: an OWNER is on either side of it. */
export const touchesOwnership = (...roles: MemberRole[]): boolean => roles.includes("OWNER");
