import { eq } from "drizzle-orm";
import type { Executor } from "../client";
import { tenants } from "../schema/identity";

/** The tenant's verification status, or undefined for an unknown id. */
export async function getTenantStatus(db: Executor, tenantId: string): Promise<(typeof tenants.$inferSelect)["status"] | undefined> {
  const [row] = await db.select({ status: tenants.status }).from(tenants).where(eq(tenants.id, tenantId));
  return row?.status;
}
