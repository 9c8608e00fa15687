import { and, desc, eq } from "drizzle-orm";
import type { Executor } from "../client";
import { kycCases, tenants, users } from "../schema/identity";

export type KycCaseRow = typeof kycCases.$inferSelect;
type TenantStatusValue = (typeof tenants.$inferSelect)["status"];
type KycCaseStatusValue = KycCaseRow["status"];

/**
 * The tenant row, locked for the rest of the transaction: what a KYC case is opened for and
 * decided against. Both KYC services take this lock first, so they share one lock order.
 */
export async function lockTenantForKyc(
  db: Executor,
  params: { tenantId: string },
): Promise<Pick<typeof tenants.$inferSelect, "id" | "name" | "accountType" | "status"> | undefined> {
  const [row] = await db
    .select({ id: tenants.id, name: tenants.name, accountType: tenants.accountType, status: tenants.status })
    .from(tenants)
    .where(eq(tenants.id, params.tenantId))
    .for("update");
  return row;
}

/** Moves the tenant's verification status from `from` to `to`; false when it was no longer `from`. */
export async function updateTenantVerificationStatus(
  db: Executor,
  params: { tenantId: string; from: TenantStatusValue; to: TenantStatusValue; updatedAt: Date },
): Promise<boolean> {
  const rows = await db
    .update(tenants)
    .set({ status: params.to, updatedAt: params.updatedAt })
    .where(and(eq(tenants.id, params.tenantId), eq(tenants.status, params.from)))
    .returning({ id: tenants.id });
  return rows.length > 0;
}

/** PENDING → the decision, for the tenant's case `reference`; undefined when it was not pending (or is unknown). */
export async function decidePendingKycCase(
  db: Executor,
  params: { tenantId: string; reference: string; status: Exclude<KycCaseStatusValue, "PENDING">; reason: string | null; decidedAt: Date },
): Promise<KycCaseRow | undefined> {
  const [row] = await db
    .update(kycCases)
    .set({ status: params.status, reason: params.reason, decidedAt: params.decidedAt })
    .where(and(eq(kycCases.reference, params.reference), eq(kycCases.tenantId, params.tenantId), eq(kycCases.status, "PENDING")))
    .returning();
  return row;
}

/** The tenant's case `reference`, or undefined (also for another tenant's reference). */
export async function findKycCase(db: Executor, params: { tenantId: string; reference: string }): Promise<KycCaseRow | undefined> {
  const [row] = await db
    .select()
    .from(kycCases)
    .where(and(eq(kycCases.reference, params.reference), eq(kycCases.tenantId, params.tenantId)));
  return row;
}

/** The tenant's most recent case, or only its most recent pending one. */
export async function findLatestKycCase(
  db: Executor,
  params: { tenantId: string; status?: KycCaseStatusValue },
): Promise<KycCaseRow | undefined> {
  const [row] = await db
    .select()
    .from(kycCases)
    .where(and(eq(kycCases.tenantId, params.tenantId), params.status ? eq(kycCases.status, params.status) : undefined))
    .orderBy(desc(kycCases.startedAt), desc(kycCases.id))
    .limit(1);
  return row;
}

export async function insertKycCase(
  db: Executor,
  params: { tenantId: string; provider: string; reference: string; startedAt: Date },
): Promise<KycCaseRow> {
  const [row] = await db
    .insert(kycCases)
    .values({ ...params, status: "PENDING" })
    .returning();
  return row!;
}

/** Whether a user of the tenant (that user, when `userId` is given) has verified their email. */
export async function hasEmailVerifiedUser(db: Executor, params: { tenantId: string; userId?: string | undefined }): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(eq(users.tenantId, params.tenantId), eq(users.status, "EMAIL_VERIFIED"), params.userId ? eq(users.id, params.userId) : undefined),
    )
    .limit(1);
  return row !== undefined;
}
