import { countMemberPasskeys, listTenantMembers } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { decodePageCursor, toPage, type PageInfo, type PageRequest } from "../pagination";
import { toMemberRecord, type MemberRecord } from "./member-record";

/** The tenant's members, newest first, a page at a time (CONTRACT §1, §14). */
export async function listMembers(
  deps: Pick<ServiceDeps, "db">,
  input: { tenantId: string } & PageRequest,
): Promise<{ members: MemberRecord[]; page: PageInfo }> {
  const rows = await listTenantMembers(deps.db, {
    tenantId: input.tenantId,
    limit: input.limit + 1,
    beforeId: decodePageCursor(input.cursor),
  });
  const { items, page } = toPage(rows, input.limit);
  const passkeys = await countMemberPasskeys(deps.db, { tenantId: input.tenantId, userIds: items.map((row) => row.id) });
  return { members: items.map((row) => toMemberRecord(row, passkeys.get(row.id) ?? 0)), page };
}
