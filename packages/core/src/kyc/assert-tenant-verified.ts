import type { Executor } from "@qc/db";
import { getTenantStatus } from "@qc/db/queries";
import { AppError } from "../errors";

/**
 * The value-moving rule (spec Rule 4, CONTRACT §3), in one place: value moves only for a
 * VERIFIED tenant. Applied by the auth middleware to routes whose meta says `valueMoving`, and
 * called again by the jobs that move value (the broadcast step re-checks the tenant). Reads the
 * status fresh, never from a cache, so an approval or a rejection takes effect at once.
 */
export async function assertTenantVerified(db: Executor, tenantId: string): Promise<void> {
  if (!valueMovingAllowed(await getTenantStatus(db, tenantId))) {
    throw new AppError("TENANT_NOT_VERIFIED", "identity verification (KYC/KYB) must complete before value can move");
  }
}

/** Whether a tenant in `status` may move value (what onboarding reports as valueMovingEnabled). */
export const valueMovingAllowed = (status: string | undefined): boolean => status === "VERIFIED";
