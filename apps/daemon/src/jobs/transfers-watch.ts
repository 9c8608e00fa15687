import { watchTransaction, type ParsedJobPayload } from "@qc/core";
import type { JobContext } from "../context";

/** Job `transfers.watch`: one look at a broadcast transaction on chain; schedules the next until it is terminal. */
export async function watchTransferJob(payload: ParsedJobPayload<"transfers.watch">, ctx: JobContext) {
  const result = await watchTransaction(ctx, payload);
  ctx.log.debug({ tenantId: payload.tenantId, transactionId: payload.transactionId, ...result }, "watch step done");
  return result;
}
