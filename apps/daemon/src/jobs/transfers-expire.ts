import { expireTransaction, type ParsedJobPayload } from "@qc/core";
import type { JobContext } from "../context";

/** Job `transfers.expire`: PENDING_SIGNATURE past its signing deadline → EXPIRED/SIGNING_TIMEOUT; AWAITING_APPROVAL past its approval deadline → EXPIRED/APPROVAL_TIMEOUT (CONTRACT §15). */
export async function expireTransferJob(payload: ParsedJobPayload<"transfers.expire">, ctx: JobContext) {
  const result = await expireTransaction(ctx, payload);
  ctx.log.info({ tenantId: payload.tenantId, transactionId: payload.transactionId, ...result }, "expiry step done");
  return result;
}
