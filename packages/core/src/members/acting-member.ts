import type { Executor } from "@qc/db";
import { findMemberRole, findTenantApiKey } from "@qc/db/queries";
import type { MemberRole } from "@qc/domain";
import type { Actor } from "../audit/actor";

/**
 * The member a request acts for, with their current role read now (CONTRACT §14): a session's
 * user, or the member who created the calling API key. Undefined for any other actor (a tool,
 * a key without a creator); `role` is undefined for a user who is no member of the tenant.
 */
export async function actingMember(
  db: Executor,
  actor: Actor,
  tenantId: string,
): Promise<{ userId: string; role: MemberRole | undefined } | undefined> {
  let userId: string | null = null;
  if (actor.type === "user") userId = actor.id;
  else if (actor.type === "api_key" && actor.id)
    userId = (await findTenantApiKey(db, { tenantId, keyId: actor.id }))?.createdByUserId ?? null;
  if (userId === null) return undefined;
  return { userId, role: await findMemberRole(db, { tenantId, userId }) };
}
