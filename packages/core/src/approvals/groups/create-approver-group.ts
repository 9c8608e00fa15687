import { insertApproverGroup, setApproverGroupMembers } from "@qc/db/queries";
import { auditAction, type Actor } from "../../audit/actor";
import type { ServiceDeps } from "../../deps/service-deps";
import { currentMemberIds, toApproverGroupRecord, type ApproverGroupRecord } from "./approver-group-record";

export interface CreateApproverGroupInput {
  tenantId: string;
  name: string;
  /** Members of the tenant (not REMOVED); repeats count once. */
  memberIds: string[];
  actor: Actor;
}

/** `POST /v1/approver-groups` (CONTRACT §15): a named set of the tenant's members, audited as `approver_group.created`. */
export async function createApproverGroup(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: CreateApproverGroupInput,
): Promise<ApproverGroupRecord> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const memberIds = await currentMemberIds(tx, input.tenantId, input.memberIds);
    const row = await insertApproverGroup(tx, { tenantId: input.tenantId, name: input.name, createdAt: now });
    await setApproverGroupMembers(tx, { tenantId: input.tenantId, groupId: row.id, userIds: memberIds, createdAt: now });
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "approver_group.created",
      target: { type: "approver_group", id: row.id },
      details: { name: row.name, memberIds },
    });
    return toApproverGroupRecord(row, memberIds);
  });
}
