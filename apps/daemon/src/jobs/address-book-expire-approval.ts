import { expireAddressBookEntry, type ParsedJobPayload } from "@qc/core";
import type { JobContext } from "../context";

/** Job `address-book.expire-approval`: an entry still awaiting approval at its deadline is removed (CONTRACT §16). */
export async function expireAddressBookApprovalJob(payload: ParsedJobPayload<"address-book.expire-approval">, ctx: JobContext) {
  const result = await expireAddressBookEntry(ctx, payload);
  ctx.log.info({ tenantId: payload.tenantId, entryId: payload.entryId, ...result }, "address-book approval timeout step done");
  return result;
}
