import { listMemberApprovalKeys } from "@qc/db/queries";
import type { ServiceDeps } from "../../deps/service-deps";
import { toApprovalKeyRecord, type ApprovalKeyRecord, type CurrentMember } from "./approval-key-record";

/**
 * `GET /v1/members/me/approval-keys`: the caller's member's keys, newest first, revoked ones
 * included with `revokedAt` (at most ten are not revoked; the list is not paginated).
 */
export async function listApprovalKeys(deps: Pick<ServiceDeps, "db">, input: CurrentMember): Promise<{ keys: ApprovalKeyRecord[] }> {
  if (!input.userId) return { keys: [] };
  const rows = await listMemberApprovalKeys(deps.db, { tenantId: input.tenantId, userId: input.userId });
  return { keys: rows.map(toApprovalKeyRecord) };
}
