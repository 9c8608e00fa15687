import { listApproverGroupRows } from "@qc/db/queries";
import type { ServiceDeps } from "../../deps/service-deps";
import { decodePageCursor, toPage, type PageInfo, type PageRequest } from "../../pagination";
import { findApproverGroupOr404, toApproverGroupRecord, toApproverGroupRecords, type ApproverGroupRecord } from "./approver-group-record";

/** `GET /v1/approver-groups`: the tenant's groups, newest first, a page at a time (CONTRACT §1). */
export async function listApproverGroups(
  deps: Pick<ServiceDeps, "db">,
  input: { tenantId: string } & PageRequest,
): Promise<{ groups: ApproverGroupRecord[]; page: PageInfo }> {
  const rows = await listApproverGroupRows(deps.db, {
    tenantId: input.tenantId,
    limit: input.limit + 1,
    beforeId: decodePageCursor(input.cursor),
  });
  const { items, page } = toPage(rows, input.limit);
  return { groups: await toApproverGroupRecords(deps.db, input.tenantId, items), page };
}

/** `GET /v1/approver-groups/{id}`; another tenant's group is 404. */
export async function getApproverGroup(
  deps: Pick<ServiceDeps, "db">,
  input: { tenantId: string; groupId: string },
): Promise<ApproverGroupRecord> {
  const { row, memberIds } = await findApproverGroupOr404(deps.db, input);
  return toApproverGroupRecord(row, memberIds);
}
