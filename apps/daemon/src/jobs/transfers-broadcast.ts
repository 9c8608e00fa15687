import { broadcastTransaction, broadcastTransactions, type ParsedJobPayload } from "@qc/core";
import type { JobContext } from "../context";
import { crashPoint } from "../crash-points";

/**
 * Job `transfers.broadcast`: SIGNED → verified again (and its policy and screening taken again
 * when older than RECHECK_AFTER_SECONDS: BLOCKED on a refusal) → BROADCASTING → sent. A retry that finds
 * the row BROADCASTING re-sends the same raw transaction (harmless); RPC outages throw 503
 * UNAVAILABLE and the runner retries.
 */
export async function broadcastTransferJob(payload: ParsedJobPayload<"transfers.broadcast">, ctx: JobContext) {
  const result = await broadcastTransaction(ctx, payload, { afterSend: () => crashPoint("transfers.broadcast:sent") });
  ctx.log.info({ tenantId: payload.tenantId, transactionId: payload.transactionId, ...result }, "broadcast step done");
  return result;
}

/** The same for a whole fetch (`broadcastTransactions`): what the jobs share is done once for all. */
export async function broadcastTransfersJob(payloads: ParsedJobPayload<"transfers.broadcast">[], ctx: JobContext) {
  const results = await broadcastTransactions(ctx, payloads, { afterSend: () => crashPoint("transfers.broadcast:sent") });
  results.forEach((result, i) => {
    const { tenantId, transactionId } = payloads[i]!;
    if (result.status === "fulfilled") ctx.log.info({ tenantId, transactionId, ...result.value }, "broadcast step done");
  });
  return results;
}
