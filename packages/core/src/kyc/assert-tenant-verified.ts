import type { Executor } from "@qc/db";
import { getTenantStatus } from "@qc/db/queries";
import { AppError } from "../errors";

/**
 * The value-moving rule (spec Rule 4, CONTRACT §3), in one place: value moves only for a
 * VERIFIED tenant. Applied by the authenticated tier to routes whose meta says `valueMoving`, and
 * called again by the jobs that move value (the broadcast step re-checks the tenant). Reads the
 * status fresh, never from a cache, so an approval or a rejection takes effect at once.
 */
export async function assertTenantVerified(db: Executor, tenantId: string): Promise<void> {
  assertValueMovingAllowed(await getTenantStatus(db, tenantId));
}

/**
 * The same rule for a status the caller has just read fresh itself: a value-moving request with an
 * idempotency key reads it in the key's lock statement (`runIdempotently`), not on its own.
 */
export function assertValueMovingAllowed(status: string | undefined): void {
  if (!valueMovingAllowed(status)) {
    throw new AppError("TENANT_NOT_VERIFIED", "identity verification (KYC/KYB) must complete before value can move");
  }
}

/** Whether a tenant in `status` may move value (what onboarding reports as valueMovingEnabled). */
export const valueMovingAllowed = (status: string | undefined): boolean => status === "VERIFIED";
