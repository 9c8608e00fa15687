import { listTenantInvitations } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { decodePageCursor, toPage, type PageInfo, type PageRequest } from "../pagination";
import { toInvitationRecord, type InvitationRecord } from "./invitation-record";

/** The tenant's invitations, newest first, a page at a time (CONTRACT §1, §14), every status. */
export async function listInvitations(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: { tenantId: string } & PageRequest,
): Promise<{ invitations: InvitationRecord[]; page: PageInfo }> {
  const rows = await listTenantInvitations(deps.db, {
    tenantId: input.tenantId,
    limit: input.limit + 1,
    beforeId: decodePageCursor(input.cursor),
  });
  const { items, page } = toPage(rows, input.limit);
  const now = deps.now();
  return { invitations: items.map((row) => toInvitationRecord(row, now)), page };
}
