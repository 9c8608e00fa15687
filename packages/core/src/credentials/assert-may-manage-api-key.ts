import type { Executor } from "@qc/db";
import { roleAllows } from "@qc/domain";
import type { Actor } from "../audit/actor";
import { AppError } from "../errors";
import { actingMember } from "../members/acting-member";

/**
 * CONTRACT §14: every member creates, rotates and revokes their own API keys (the route's action,
 * `own_keys`, checked by the authenticated tier); another member's key takes a role that may
 * `administer` the tenant. The caller is the request's actor, read again here with their current
 * role: a session's user, or the member who created the calling key. A tool's own change (a
 * `system` actor) is not a member's and passes.
 */
export async function assertMayManageApiKey(
  db: Executor,
  actor: Actor,
  key: { tenantId: string; createdByUserId: string | null },
): Promise<void> {
  if (actor.type === "system") return;
  const caller = await actingMember(db, actor, key.tenantId);
  if (caller && key.createdByUserId !== null && caller.userId === key.createdByUserId) return;
  if (caller?.role && roleAllows(caller.role, "administer")) return;
  throw new AppError("INSUFFICIENT_ROLE", `a ${caller?.role ?? "caller without a role"} may not rotate or revoke another member's API key`);
}
