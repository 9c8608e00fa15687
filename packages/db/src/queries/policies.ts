import { desc, eq, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { policies } from "../schema/transfers";
import { defineRead } from "../hot-path/define-query";

export type PolicyRow = typeof policies.$inferSelect;

/** The tenant's newest policy version (the one that applies), or undefined when it never set one. */
export async function findCurrentPolicy(db: Executor, params: { tenantId: string }): Promise<PolicyRow | undefined> {
  // Every transfer's checks read it: a prepared read (../hot-path).
  const [row] = await findCurrentPolicyRead.on(db).execute({ tenantId: params.tenantId });
  return row;
}
const findCurrentPolicyRead = defineRead("qc_find_current_policy", (db) =>
  db
    .select()
    .from(policies)
    .where(eq(policies.tenantId, sql.placeholder("tenantId")))
    .orderBy(desc(policies.version))
    .limit(1),
);

/**
 * Appends the tenant's next policy version (highest + 1, computed in the statement). Two
 * concurrent writers compute the same number and the unique (tenant, version) index refuses
 * the second: the caller turns that into a conflict.
 */
export async function insertPolicyVersion(
  db: Executor,
  params: { tenantId: string; document: Record<string, unknown>; createdBy: string | null; createdAt: Date },
): Promise<PolicyRow> {
  const next = sql<number>`(select coalesce(max(${policies.version}), 0) + 1 from ${policies} where ${policies.tenantId} = ${params.tenantId})`;
  const [row] = await db
    .insert(policies)
    .values({
      tenantId: params.tenantId,
      version: next,
      document: params.document,
      createdBy: params.createdBy,
      createdAt: params.createdAt,
    })
    .returning();
  return row!;
}
