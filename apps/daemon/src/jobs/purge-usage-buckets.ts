import { purgeOldUsageBuckets, type ParsedJobPayload } from "@qc/core";
import type { JobContext } from "../context";

/** Deletes usage buckets older than every velocity window and daily quota (daily). */
export async function purgeUsageBucketsJob(_payload: ParsedJobPayload<"maintenance.purge-usage-buckets">, ctx: JobContext) {
  return purgeOldUsageBuckets(ctx);
}
