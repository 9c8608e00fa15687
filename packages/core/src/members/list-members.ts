import { findTenantMember, listTenantMembers } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { decodePageCursor, toPage, type PageInfo, type PageRequest } from "../pagination";
import { toMemberRecords, type MemberRecord } from "./member-record";

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
  return { members: await toMemberRecords(deps.db, input.tenantId, items), page };
}

/**
 * `GET /v1/members/me`: the member the request acts for (the session's user, or the member who
 * created the API key), as the list shows them. The reference signer reads its member's `userId`
 * here to sign an approval key's enrollment proof (CONTRACT §15). A caller acting for no member
 * (a key a tool seeded) is 404.
 */
export async function getCurrentMember(
  deps: Pick<ServiceDeps, "db">,
  input: { tenantId: string; userId: string | undefined },
): Promise<MemberRecord> {
  const row = input.userId ? await findTenantMember(deps.db, { tenantId: input.tenantId, userId: input.userId }) : undefined;
  if (!row) throw new AppError("NOT_FOUND", "this credential acts for no member of the tenant");
  const [record] = await toMemberRecords(deps.db, input.tenantId, [row]);
  return record!;
}
