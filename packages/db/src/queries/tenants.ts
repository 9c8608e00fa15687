import { eq, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { tenants } from "../schema/identity";
import { defineRead } from "../hot-path/define-query";

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
