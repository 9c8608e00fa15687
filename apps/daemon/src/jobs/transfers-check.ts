import { runTransferChecks, type ParsedJobPayload } from "@qc/core";
import type { JobContext } from "../context";

/**
 * Job `transfers.check`: policy, screening, quotas and balance of a SUBMITTED transfer, then
 * BLOCKED / FAILED or released for signing (PENDING_SIGNATURE or QUEUED). A transfer that has
 * moved on is left alone; a provider or chain outage is a 503 the runner retries.
 */
export async function checkTransferJob(payload: ParsedJobPayload<"transfers.check">, ctx: JobContext) {
  const outcome = await runTransferChecks(ctx, payload);
  const status = outcome.status === "RELEASE" ? outcome.release.status : outcome.status;
  ctx.log.info({ tenantId: payload.tenantId, transactionId: payload.transactionId, status }, "transfer checked");
  return { status };
}
