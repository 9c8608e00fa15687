import { findTenantMemberIdentity } from "@qc/db/queries";
import type { MemberRole } from "@qc/domain";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";

/** Who is signed in to the dashboard: the organization, and the member with their current role. */
export interface SignedInMember {
  tenant: { id: string; name: string };
  member: { userId: string; email: string; name: string | null; role: MemberRole };
}

/**
 * The dashboard's "who am I" (every signed-in page names the organization and the member with their
 * role, CONTRACT §14): read now, so a role change shows on the next read. A user who is no member
 * of the tenant any more is 401, as their session is.
 */
export async function getSignedInMember(
  deps: Pick<ServiceDeps, "db">,
  input: { tenantId: string; userId: string },
): Promise<SignedInMember> {
  const row = await findTenantMemberIdentity(deps.db, input);
  if (!row) throw new AppError("UNAUTHENTICATED", "this session's member is no longer in the organization");
  return {
    tenant: { id: row.tenantId, name: row.tenantName },
    member: { userId: row.userId, email: row.email, name: row.name, role: row.role },
  };
}
