import type { MemberRole } from "@qc/domain";
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { tenants, users } from "../schema/identity";
import { defineRead } from "../hot-path/define-query";
import { notRemoved } from "./identity";

/** The tenant's verification status, or undefined for an unknown id. */
export async function getTenantStatus(db: Executor, tenantId: string): Promise<(typeof tenants.$inferSelect)["status"] | undefined> {
  // Every value-moving request reads this first: a prepared statement (../hot-path).
  const [row] = await getTenantStatusRead.on(db).execute({ tenantId });
  return row?.status;
}
const getTenantStatusRead = defineRead("qc_get_tenant_status", (db) =>
  db
    .select({ status: tenants.status })
    .from(tenants)
    .where(eq(tenants.id, sql.placeholder("tenantId"))),
);

export interface TenantMemberIdentity {
  tenantId: string;
  tenantName: string;
  userId: string;
  email: string;
  name: string | null;
  role: MemberRole;
}

/** The tenant's name with one of its members (who a dashboard session is); undefined for a user of another tenant or a removed one. */
export async function findTenantMemberIdentity(
  db: Executor,
  params: { tenantId: string; userId: string },
): Promise<TenantMemberIdentity | undefined> {
  const [row] = await db
    .select({ tenantId: tenants.id, tenantName: tenants.name, userId: users.id, email: users.email, name: users.name, role: users.role })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(and(eq(users.id, params.userId), eq(users.tenantId, params.tenantId), notRemoved));
  return row;
}
