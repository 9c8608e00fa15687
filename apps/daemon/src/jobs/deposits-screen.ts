import { screenDeposit, type ParsedJobPayload } from "@qc/core";
import type { JobContext } from "../context";

/** Job `deposits.screen`: screens a deposit's sender once and records the verdict (CONTRACT §21); retried while the provider is down. */
export async function screenDepositJob(payload: ParsedJobPayload<"deposits.screen">, ctx: JobContext) {
  const { screening } = await screenDeposit(ctx, payload);
  ctx.log.debug({ transactionId: payload.transactionId, decision: screening?.decision }, "deposit sender screened");
  return { decision: screening?.decision ?? null };
}
