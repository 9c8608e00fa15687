import { failUncheckedTransfer, systemActor, type ParsedJobPayload } from "@qc/core";
import type { JobContext } from "../context";

/**
 * Dead letter of `transfers.check`: the checks used up their retries. The transfer fails closed
 * (FAILED/INTERNAL_ERROR with the reason) instead of staying SUBMITTED with nobody to move it.
 */
export async function checkExhaustedJob(payload: ParsedJobPayload<"transfers.check">, ctx: JobContext, lastError?: string) {
  const outcome = await failUncheckedTransfer(ctx, { ...payload, lastError, actor: systemActor("transfers.check") });
  ctx.log.warn(
    { tenantId: payload.tenantId, transactionId: payload.transactionId, failed: outcome.moved, lastError },
    "transfer checks exhausted",
  );
  return { failed: outcome.moved };
}
