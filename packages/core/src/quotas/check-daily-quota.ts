import type { Executor } from "@qc/db";
import { sumUsage } from "@qc/db/queries";
import type { TransferConfig } from "../deps/service-config";

export type DailyQuotaDecision = { exceeded: false } | { exceeded: true; reason: string };

/** 00:00:00.000 UTC of the day `at` falls on. */
export const startOfUtcDay = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

/**
 * The tenant's daily quotas (UTC day of the transfer's creation), read from the tenant's hourly
 * usage buckets of that day up to the end of the transfer's hour (`sumUsage`: at most 24
 * rows per sum whatever the volume): the transfers that did not end without moving value, this
 * one included, and the later ones of its hour (docs/decisions/usage-buckets.md: never fewer
 * than the transfers created before it). At most `quota.count` transfers of every asset, and for
 * the transfer's asset at most `quota.amounts[assetId]` in raw units.
 */
export async function checkDailyQuota(
  db: Executor,
  quota: TransferConfig["dailyQuota"],
  transfer: { tenantId: string; transactionId: string; assetId: string; createdAt: Date },
): Promise<DailyQuotaDecision> {
  const usage = await sumUsage(db, {
    tenantId: transfer.tenantId,
    scope: "TENANT",
    scopeId: transfer.tenantId,
    assetId: transfer.assetId,
    from: startOfUtcDay(transfer.createdAt),
    // [start of day, createdAt + 1 ms): the transfer's own hour read whole (`sumWindowUsage`).
    to: new Date(transfer.createdAt.getTime() + 1),
  });
  if (usage.everyAssetCount > quota.count) {
    return {
      exceeded: true,
      reason: `daily quota exceeded: this would be transfer ${usage.everyAssetCount} of the UTC day; the limit is ${quota.count}`,
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
