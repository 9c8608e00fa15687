import { addressBookApprovalHash } from "@qc/chain";
import type { Transaction } from "@qc/db";
import {
  approveAddressBookEntry,
  findAddressBookApprovals,
  findMemberApproverGroups,
  insertAddressBookApproval,
  lockAddressBookEntry,
  removeWaitingAddressBookEntry,
  type AddressBookApprovalRow,
  type AddressBookEntryRow,
} from "@qc/db/queries";
import { actingMemberId, auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { emitEvent } from "../events/emit-event";
import type { ApprovalDecisionInput } from "../approvals/decisions/decide-approval";
import { verifiedApproval } from "../approvals/decisions/decide-approval";
import { countVerifiedApprovals } from "../approvals/decisions/verify-counted-approvals";
import {
  addressBookApprovalFieldsOf,
  entryDetails,
  findAddressBookEntryOr404,
  loadAddressBookEntryRecord,
  type AddressBookEntryRecord,
} from "./address-book-entry-record";
import { addressBookActivationJob } from "./announce-entry-activation";

type DecideDeps = Pick<ServiceDeps, "db" | "jobs" | "now" | "verifier" | "config">;

const notAwaiting = (status: string | undefined, already = false) =>
  new AppError(
    "CONFLICT",
    already
      ? "you already decided on this address-book entry"
      : `a ${status} entry takes no approval decision; only AWAITING_APPROVAL does`,
    { details: { status } },
  );

/**
 * `POST /v1/address-book/{id}/approvals` (CONTRACT §16, decided as transfers are, §15): one member's
 * decision on an entry whose addition needs an approver group's quorum. Refused, in this order: an
 * unknown id (404); an entry not AWAITING_APPROVAL (409 CONFLICT); an approval by the member who
 * added it (403 SELF_APPROVAL_FORBIDDEN: they may only reject); a caller outside the entry's group
 * (403 NOT_AN_APPROVER); an approval whose key is not one of the caller's active approval keys, or
 * whose signature does not verify over the entry's `approvalHash` rebuilt from the row (400
 * INVALID_SIGNATURE).
 *
 * Then one database transaction under the entry's row lock (so decisions arriving at once are taken
 * one after the other): AWAITING_APPROVAL again, the decision stored (a second one by the same
 * member: 409 CONFLICT), its audit row and `address_book.entry_approval_recorded`. A rejection
 * removes the entry (REMOVED, `removedBy` the member, `removalReason` theirs, `address_book.entry_removed`).
 * An approval counts the quorum again — every approval verified again on the worker pool, those of
 * removed members, members who left the group and revoked keys not counting — and the one that
 * completes it moves the entry to PENDING with `activatesAt` = that instant +
 * ADDRESS_BOOK_ACTIVATION_SECONDS (a conditional UPDATE) and schedules its announcement.
 */
export async function decideAddressBookEntry(
  deps: DecideDeps,
  input: { tenantId: string; entryId: string; actor: Actor } & ApprovalDecisionInput,
): Promise<AddressBookEntryRecord> {
  const row = await findAddressBookEntryOr404(deps.db, input);
  if (row.status !== "AWAITING_APPROVAL" || !row.approvalGroupId || !row.approvalQuorum) throw notAwaiting(row.status);
  const memberId = actingMemberId(input.actor);
  if (input.decision === "APPROVED" && memberId !== null && row.createdByUserId === memberId)
    throw new AppError("SELF_APPROVAL_FORBIDDEN", "the member who added an address-book entry may reject it but never approve it");
  const groupIds = memberId
    ? await findMemberApproverGroups(deps.db, { tenantId: input.tenantId, userId: memberId, groupIds: [row.approvalGroupId] })
    : [];
  if (!memberId || groupIds.length === 0)
    throw new AppError("NOT_AN_APPROVER", "you are not in the approver group this address-book entry requires");
  const approvalHash = addressBookApprovalHash(addressBookApprovalFieldsOf(row));
  const signed =
    input.decision === "APPROVED"
      ? await verifiedApproval(deps, { tenantId: input.tenantId, memberId, keyId: input.keyId, signature: input.signature, approvalHash })
      : null;

  return deps.db.transaction(async (tx) => {
    const locked = await lockAddressBookEntry(tx, input);
    if (locked?.status !== "AWAITING_APPROVAL") throw notAwaiting(locked?.status);
    const decidedAt = deps.now();
    const stored = await insertAddressBookApproval(tx, {
      tenantId: input.tenantId,
      entryId: input.entryId,
      userId: memberId,
      decision: input.decision,
      groupIds,
      keyId: signed?.keyId ?? null,
      approvalHash,
      signature: signed?.signature ?? null,
      reason: input.decision === "REJECTED" ? input.reason : null,
      decidedAt,
    });
    if (!stored) throw notAwaiting(locked.status, true);
    const settled = await settle(deps, tx, locked, stored, approvalHash);
    const entry = await loadAddressBookEntryRecord(tx, settled, decidedAt);
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "address_book.entry_approval_recorded",
      target: { type: "address_book_entry", id: input.entryId },
      details: {
        decision: stored.decision,
        keyId: stored.keyId,
        reason: stored.reason,
        status: entry.status,
        activatesAt: entry.activatesAt,
      },
    });
    const decision = entry.approvals!.decisions.find((d) => d.userId === stored.userId)!;
    await emitEvent(tx, {
      tenantId: input.tenantId,
      type: "address_book.entry_approval_recorded",
      aggregateId: input.entryId,
      data: { entry, decision },
    });
    if (settled.status === "REMOVED") {
      await auditAction(tx, input.actor, {
        tenantId: input.tenantId,
        action: "address_book.entry_removed",
        target: { type: "address_book_entry", id: input.entryId },
        details: { ...entryDetails(settled), reason: settled.removalReason },
      });
      await emitEvent(tx, { tenantId: input.tenantId, type: "address_book.entry_removed", aggregateId: input.entryId, data: { entry } });
    }
    return entry;
  });
}

/** The entry after the decision: REMOVED by a rejection, PENDING once the quorum is met, else still waiting. */
async function settle(
  deps: DecideDeps,
  tx: Transaction,
  row: AddressBookEntryRow,
  stored: AddressBookApprovalRow,
  approvalHash: string,
): Promise<AddressBookEntryRow> {
  const key = { tenantId: row.tenantId, entryId: row.id };
  if (stored.decision === "REJECTED") {
    const removed = await removeWaitingAddressBookEntry(tx, {
      ...key,
      removedAt: stored.decidedAt,
      removedBy: stored.userId,
      reason: stored.reason!,
    });
    if (!removed) throw notAwaiting(row.status);
    return removed;
  }
  const counted = await countVerifiedApprovals(deps, {
    required: [{ groupId: row.approvalGroupId!, quorum: row.approvalQuorum! }],
    approvalHash,
    approvals: await findAddressBookApprovals(tx, key),
  });
  if (!counted.met) return row;
  const activatesAt = new Date(stored.decidedAt.getTime() + deps.config.transfers.addressBookActivationSeconds * 1000);
  const approved = await approveAddressBookEntry(tx, { ...key, approvedAt: stored.decidedAt, activatesAt });
  if (!approved) throw notAwaiting(row.status);
  await deps.jobs.schedule(tx, ...addressBookActivationJob({ ...approved, activatesAt }));
  return approved;
}
