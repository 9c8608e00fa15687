import type { Executor } from "@qc/db";
import { sumUsage, type UsageWindow } from "@qc/db/queries";

/**
 * What one scope (the source wallet, its vault, the whole tenant) moved of an asset from `from`
 * to `at`, `at` included, read from the hourly usage buckets (docs/decisions/usage-buckets.md):
 * every transaction of every hour that overlaps the window that has not ended without moving
 * value, so never less than the window's own and at most one hour's worth more on each side
 * (later transactions of `at`'s hour, concurrent ones included). A constant number of rows
 * whatever the volume: ⌈window / 1 h⌉ + 1 per sum.
 */
export function sumWindowUsage(
  db: Executor,
  input: {
    tenantId: string;
    scope: UsageWindow["scope"];
    transfer: { sourceWalletId: string; sourceVaultId: string; assetId: string };
    from: Date;
    at: Date;
  },
): ReturnType<typeof sumUsage> {
  const { tenantId, scope, transfer } = input;
  const scopeId = scope === "WALLET" ? transfer.sourceWalletId : scope === "VAULT" ? transfer.sourceVaultId : tenantId;
  // [from, at + 1 ms): `at` is a millisecond timestamp, and its own hour is read whole.
  return sumUsage(db, { tenantId, scope, scopeId, assetId: transfer.assetId, from: input.from, to: new Date(input.at.getTime() + 1) });
}
