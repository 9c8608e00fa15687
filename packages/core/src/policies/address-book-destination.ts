import type { Executor } from "@qc/db";
import { findActiveAddressBookEntry } from "@qc/db/queries";
import type { PolicyTransfer } from "./evaluate-policy-rules";
import type { PolicyDocument } from "./policy-document";

/** Whether a rule of the document matches on `destination` (CONTRACT §16), so the book must be read. */
export const policyUsesAddressBook = (document: PolicyDocument): boolean =>
  document.rules.some((rule) => rule.match.destination !== undefined);

/**
 * The transfer with its destination's address-book entry (`addressBookEntry`: the entry, or null)
 * when the document has a `destination` rule; unchanged, with no statement run, otherwise. The
 * entry counts when it is ACTIVE at `now` (`activatesAt <= now`, not removed) on the transfer's
 * network and, when it lists assets, lists the transfer's.
 */
export async function withAddressBookEntry(
  db: Executor,
  tenantId: string,
  document: PolicyDocument,
  transfer: PolicyTransfer,
  now: Date,
): Promise<PolicyTransfer> {
  if (!policyUsesAddressBook(document)) return transfer;
  const entry = await findActiveAddressBookEntry(db, {
    tenantId,
    networkCode: transfer.networkCode,
    address: transfer.destinationAddress,
    assetId: transfer.assetId,
    at: now,
  });
  return { ...transfer, addressBookEntry: entry ? { id: entry.id, label: entry.label } : null };
}
