"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { AddressBookEntry } from "../../../src/dashboard/router-types";
import { useTRPC } from "../../../src/dashboard/trpc";
import { FormError, TextField } from "../../_components/field";
import { formFailure } from "../../_components/form-failure";
import { Time } from "../../_components/time";
import { useSignedInMember } from "../../_components/use-signed-in-member";
import { approvedPerGroup } from "../_approvals/approved-per-group";
import { useApproverGroups } from "../_approvals/use-approver-groups";
import { useInvalidateAddressBook } from "./use-address-book";

type Approvals = NonNullable<AddressBookEntry["approvals"]>;

/**
 * An entry awaiting approval (CONTRACT §16): what its quorum needs and by when. A member of its
 * group who has not decided is shown the signer command that approves it (the signer holds the
 * approval key and rebuilds the hash, as for transfers on /approvals) and may reject it here, with a
 * reason (a rejection is not signed); the API has the last word.
 */
export function EntryApproval({ entry, approvals }: { entry: AddressBookEntry; approvals: Approvals }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateAddressBook();
  const { me, can } = useSignedInMember();
  const { byId, nameOf } = useApproverGroups();
  const [reason, setReason] = useState("");
  const reject = useMutation(trpc.addressBook.decide.mutationOptions({ onSuccess: invalidate }));
  const approved = approvedPerGroup(approvals);
  const userId = me?.member.userId;
  const inGroup = approvals.required.some((r) => userId !== undefined && byId.get(r.groupId)?.memberIds.includes(userId));
  const decided = approvals.decisions.some((d) => d.userId === userId);
  const failure = formFailure(reject.error, ["reason"]);

  function submit(event: FormEvent) {
    event.preventDefault();
    reject.mutate({ entryId: entry.id, decision: "REJECTED", reason: reason.trim() });
  }

  return (
    <div className="small" data-testid="entry-approval">
      {approvals.required.map((r) => (
        <div key={r.groupId}>
          {nameOf(r.groupId)}: {approved.get(r.groupId) ?? 0} of {r.quorum} approval(s)
        </div>
      ))}
      <div className="muted">
        removed if not approved by <Time at={approvals.deadline} />
      </div>
      {can("approve") && inGroup && !decided && (
        <>
          <div>
            Approve in your signer: <code>signer approve-entry {entry.id}</code>
          </div>
          <form onSubmit={submit} noValidate data-testid="reject-entry">
            <TextField
              label={`Reason for rejecting ${entry.label}`}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={1000}
              error={failure.field("reason")}
            />
            <FormError message={failure.form} />
            <button type="submit" className="danger small" disabled={reject.isPending || !reason.trim()}>
              Reject {entry.label}
            </button>
          </form>
        </>
      )}
    </div>
  );
}
