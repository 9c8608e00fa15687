import { eq, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { tenants } from "../schema/identity";
import { preparedRead } from "./prepared";

/** The tenant's verification status, or undefined for an unknown id. */
export async function getTenantStatus(db: Executor, tenantId: string): Promise<(typeof tenants.$inferSelect)["status"] | undefined> {
  // Every value-moving request reads this first: a prepared statement (./prepared).
  const [row] = await preparedRead(db, "qc_get_tenant_status", (executor) =>
    executor.select({ status: tenants.status }).from(tenants).where(eq(tenants.id, sql.placeholder("tenantId"))).prepare("qc_get_tenant_status"),
  ).execute({ tenantId });
  return row?.status;
}
