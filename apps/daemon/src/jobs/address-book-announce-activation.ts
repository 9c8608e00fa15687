import { announceEntryActivation, type ParsedJobPayload } from "@qc/core";
import type { JobContext } from "../context";

/** Job `address-book.announce-activation`: `address_book.entry_activated` at the entry's `activatesAt`, once, unless removed (CONTRACT §16). */
export async function announceAddressBookActivationJob(payload: ParsedJobPayload<"address-book.announce-activation">, ctx: JobContext) {
  const result = await announceEntryActivation(ctx, payload);
  ctx.log.info({ tenantId: payload.tenantId, entryId: payload.entryId, ...result }, "address-book activation step done");
  return result;
}
