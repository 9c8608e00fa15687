import type { Executor } from "@qc/db";
import { summarizeTransfers } from "@qc/db/queries";
import type { TransferConfig } from "../deps/service-config";

export type DailyQuotaDecision = { exceeded: false } | { exceeded: true; reason: string };

/** 00:00:00.000 UTC of the day `at` falls on. */
export const startOfUtcDay = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

/**
 * The tenant's daily quotas (UTC day of the transfer's creation), counted in SQL over the
 * tenant's transfers created that day up to this one (itself included) that did not end
 * without moving value: at most `quota.count` transfers, and for the transfer's asset at most
 * `quota.amounts[assetId]` in raw units.
 */
export async function checkDailyQuota(
  db: Executor,
  quota: TransferConfig["dailyQuota"],
  transfer: { tenantId: string; transactionId: string; assetId: string; createdAt: Date },
): Promise<DailyQuotaDecision> {
  const usage = await summarizeTransfers(db, {
    tenantId: transfer.tenantId,
    assetId: transfer.assetId,
    from: startOfUtcDay(transfer.createdAt),
    to: transfer.createdAt,
    upToId: transfer.transactionId,
  });
  if (usage.count > quota.count) {
    return {
      exceeded: true,
      reason: `daily quota exceeded: this would be transfer ${usage.count} of the UTC day; the limit is ${quota.count}`,
    };
  }
  const limit = quota.amounts[transfer.assetId];
  if (limit !== undefined && usage.amount > limit) {
    return {
      exceeded: true,
      reason: `daily quota exceeded: ${usage.amount} of asset ${transfer.assetId} in the UTC day (this transfer included); the limit is ${limit}`,
    };
  }
  return { exceeded: false };
}
