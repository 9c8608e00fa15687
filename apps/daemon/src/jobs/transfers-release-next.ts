import { releaseNextQueued, type ParsedJobPayload } from "@qc/core";
import type { JobContext } from "../context";

/**
 * Job `transfers.release-next`: the source's nonce slot may be free (the transfer ahead was
 * broadcast or ended): release its oldest QUEUED transfer for signing, if any — after taking its
 * policy and screening again when older than RECHECK_AFTER_SECONDS (BLOCKED on a refusal).
 */
export async function releaseNextTransferJob(payload: ParsedJobPayload<"transfers.release-next">, ctx: JobContext) {
  const outcome = await releaseNextQueued(ctx, payload);
  const transactionId = "transaction" in outcome ? outcome.transaction.id : null;
  ctx.log.info(
    { tenantId: payload.tenantId, sourceWalletId: payload.sourceWalletId, status: outcome.status, transactionId },
    "release-next ran",
  );
  return { status: outcome.status, transactionId };
}
