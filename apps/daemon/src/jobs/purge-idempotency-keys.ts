import { purgeExpiredIdempotencyKeys, type ParsedJobPayload } from "@qc/core";
import type { JobContext } from "../context";

/** Deletes idempotency keys past their 24 h retention (hourly). */
export async function purgeIdempotencyKeysJob(_payload: ParsedJobPayload<"maintenance.purge-idempotency-keys">, ctx: JobContext) {
  return purgeExpiredIdempotencyKeys(ctx);
}
