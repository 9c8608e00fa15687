import { releaseNextQueued, type ParsedJobPayload } from "@qc/core";
import type { JobContext } from "../context";

/**
 * Job `transfers.release-next`: the source's nonce window may have room, or a nonce may have been
 * left unused: release its QUEUED transfers for signing, oldest first, up to the window (each
 * after taking its policy and screening again when older than RECHECK_AFTER_SECONDS; BLOCKED on a
 * refusal), then fill every nonce still left unused with a NONCE_FILL (docs/transfers.md).
 */
export async function releaseNextTransferJob(payload: ParsedJobPayload<"transfers.release-next">, ctx: JobContext) {
  const { outcomes, fills } = await releaseNextQueued(ctx, payload);
  const released = outcomes.flatMap((outcome) => (outcome.status === "PENDING_SIGNATURE" ? [outcome.transaction.id] : []));
  const last = outcomes.at(-1);
  const stopped = last?.status === "UNCHANGED" ? last.reason : null;
  const filled = fills.map((fill) => ({ id: fill.id, nonce: fill.nonce }));
  ctx.log.info(
    { tenantId: payload.tenantId, sourceWalletId: payload.sourceWalletId, released, looked: outcomes.length, stopped, filled },
    "release-next ran",
  );
  return { released, stopped, filled };
}
