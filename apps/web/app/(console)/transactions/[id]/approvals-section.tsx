"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { Transaction } from "../../../../src/dashboard/router-types";
import { useTRPC } from "../../../../src/dashboard/trpc";
import { DataTable } from "../../../_components/data-table";
import { FormError, TextAreaField } from "../../../_components/field";
import { formFailure } from "../../../_components/form-failure";
import { StatusBadge } from "../../../_components/status-badge";
import { Time } from "../../../_components/time";
import { useSignedInMember } from "../../../_components/use-signed-in-member";
import { useApproverGroups } from "../../_approvals/use-approver-groups";
import { useMemberNames } from "../../_approvals/use-member-names";
import { approvedPerGroup } from "../../_approvals/approved-per-group";
import { InitiatedBy } from "../../_approvals/initiated-by";

type Approvals = NonNullable<Transaction["approvals"]>;

/**
 * CONTRACT §15 on the transaction page: the approver groups a policy rule required (name, quorum,
 * how many approved), every decision (who, what, for which groups, why, when) and who initiated
 * the transfer. While it awaits approval: where approving happens (the signer holds the approval
 * keys; the dashboard never does) and, for a member of a required group who has not decided, a
 * rejection with its reason.
 */
export function ApprovalsSection({ transaction: t, approvals }: { transaction: Transaction; approvals: Approvals }) {
  const { nameOf: groupName } = useApproverGroups();
  const { nameOf: memberName } = useMemberNames();
  const approved = approvedPerGroup(approvals);
  const awaiting = t.status === "AWAITING_APPROVAL";
  const trpc = useTRPC();
  // The deadline is in the approvals' evidence (GET /v1/transactions/{id}/approvals), not the record.
  const evidence = useQuery({ ...trpc.approvals.transaction.queryOptions({ transactionId: t.id }), enabled: awaiting });
  const deadline = evidence.data?.deadline ?? null;
  return (
    <section className="panel" aria-labelledby="approvals-heading" data-testid="approvals-section">
      <h2 id="approvals-heading">Approvals</h2>
      <dl className="facts">
        <dt>Initiated by</dt>
        <dd data-testid="initiated-by">
          <InitiatedBy initiatedBy={t.initiatedBy} memberName={memberName} />
        </dd>
        <dt>Rule</dt>
        <dd>{t.policy?.ruleId ? <code>{t.policy.ruleId}</code> : "—"}</dd>
        {awaiting && deadline && (
          <>
            <dt>Approve before</dt>
            <dd data-testid="approval-deadline">
              <Time at={deadline} />
            </dd>
          </>
        )}
      </dl>
      {awaiting && (
        <p className="notice warning" data-testid="approval-instructions">
          Waiting for approvers: each approves with their own approval key in the signer, <code>signer approve {t.id}</code>, which shows
          the transfer, rebuilds what is signed and asks for the destination&apos;s last characters. The dashboard holds no approval key, so
          it cannot approve. If the groups do not reach their quorum within the approval timeout, the transfer ends <code>EXPIRED</code> /{" "}
          <code>APPROVAL_TIMEOUT</code>; one rejection ends it <code>REJECTED</code> / <code>REJECTED_BY_APPROVER</code>.
        </p>
      )}
      <h3>Required</h3>
      <DataTable
        headers={["Group", "Quorum", "Approved"]}
        rows={approvals.required}
        rowKey={(r) => r.groupId}
        renderRow={(r) => (
          <tr data-testid="approval-group-row" data-group-id={r.groupId}>
            <td>{groupName(r.groupId)}</td>
            <td>{r.quorum}</td>
            <td data-testid="approved-count">
              {approved.get(r.groupId) ?? 0} of {r.quorum}
              {(approved.get(r.groupId) ?? 0) >= r.quorum && <span className="muted small"> (reached)</span>}
            </td>
          </tr>
        )}
      />
      <h3>Decisions</h3>
      <DataTable
        headers={["Member", "Decision", "For groups", "Reason", "When"]}
        rows={approvals.decisions}
        rowKey={(d) => d.userId}
        emptyRow="No decision yet."
        renderRow={(d) => (
          <tr data-testid="approval-decision-row" data-decision={d.decision}>
            <td>{memberName(d.userId)}</td>
            <td>
              <StatusBadge status={d.decision} />
            </td>
            <td>{d.groupIds.map(groupName).join(", ") || "—"}</td>
            <td>{d.reason ?? "—"}</td>
            <td>
              <Time at={d.decidedAt} />
            </td>
          </tr>
        )}
      />
      {awaiting && <RejectForm transaction={t} approvals={approvals} />}
    </section>
  );
}

/** A member of a required group who has not decided may reject here (a rejection is not signed); the API has the last word. */
function RejectForm({ transaction: t, approvals }: { transaction: Transaction; approvals: Approvals }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { me, can } = useSignedInMember();
  const { byId } = useApproverGroups();
  const [reason, setReason] = useState("");
  const reject = useMutation(
    trpc.approvals.decide.mutationOptions({
      onSuccess: (updated) => {
        queryClient.setQueryData(trpc.transactions.get.queryKey({ transactionId: t.id }), updated);
        void queryClient.invalidateQueries({ queryKey: trpc.transactions.events.queryKey({ transactionId: t.id }) });
        void queryClient.invalidateQueries({ queryKey: trpc.approvals.pending.queryKey() });
      },
    }),
  );
  const userId = me?.member.userId;
  const inRequiredGroup = approvals.required.some((r) => userId !== undefined && byId.get(r.groupId)?.memberIds.includes(userId));
  const decided = approvals.decisions.some((d) => d.userId === userId);
  if (!can("approve") || !inRequiredGroup || decided) return null;
  const failure = formFailure(reject.error, ["reason"]);

  function submit(event: FormEvent) {
    event.preventDefault();
    reject.mutate({ transactionId: t.id, decision: "REJECTED", reason: reason.trim() });
  }

  return (
    <form onSubmit={submit} noValidate data-testid="reject-approval">
      <h3>Reject</h3>
      <p className="small muted">
        You are in a group this transfer needs. Rejecting ends it at once (<code>REJECTED</code> / <code>REJECTED_BY_APPROVER</code>);
        approving is done in the signer.
      </p>
      <TextAreaField
        label="Reason for rejecting"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        required
        maxLength={1000}
        error={failure.field("reason")}
        hint="Required; kept with your decision in the record."
      />
      <FormError message={failure.form} />
      <button type="submit" className="danger" disabled={reject.isPending || !reason.trim()}>
        Reject transfer
      </button>
    </form>
  );
}
