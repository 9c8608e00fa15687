import type { MemberAction } from "@qc/domain";
import type { MemberRole } from "../../../src/dashboard/router-types";
import { MEMBER_ROLES } from "../../../src/dashboard/vocabulary";

/** What each role may do, in a line (CONTRACT §14's table; docs/members.md). */
export const ROLE_SUMMARIES: Record<MemberRole, string> = {
  OWNER: "everything, including making and removing owners",
  ADMIN: "everything but owners: members, keys, webhooks, policies, settings, transfers",
  INITIATOR: "transfers, vaults, wallets and deployments; decides approvals",
  APPROVER: "decides approvals; reads everything",
  VIEWER: "reads everything",
};

/** The roles the signed-in member may give: every role but OWNER unless they may make owners. */
export function assignableRoles(can: (action: MemberAction) => boolean): MemberRole[] {
  return MEMBER_ROLES.filter((role) => role !== "OWNER" || can("manage_owners"));
}

/** Whether the signed-in member may change or remove a member of this role (only an OWNER touches owners). */
export function mayManage(can: (action: MemberAction) => boolean, role: MemberRole): boolean {
  return can("manage_members") && (role !== "OWNER" || can("manage_owners"));
}
