"use client";

import { emptyApproval, type ApprovalDraft } from "../../../src/dashboard/policy-draft";
import { SelectField, TextField } from "../../_components/field";
import { useApproverGroups } from "../_approvals/use-approver-groups";

/**
 * A REQUIRE_APPROVAL rule's approver groups (CONTRACT §15): each picked by name from the tenant's
 * groups, with its quorum (how many of its members must approve). Every group listed must reach
 * its quorum; one member's approval counts for each listed group they are in.
 */
export function ApprovalRequirements({
  rule,
  approvals,
  onChange,
  errorAt,
  editable,
}: {
  rule: number;
  approvals: ApprovalDraft[];
  onChange: (next: ApprovalDraft[]) => void;
  errorAt: (path: string) => string | undefined;
  editable: boolean;
}) {
  const { groups, byId, query } = useApproverGroups();
  const at = (path: string) => `rules.${rule}.approvals${path}`;
  const set = (j: number, patch: Partial<ApprovalDraft>) => onChange(approvals.map((a, k) => (k === j ? { ...a, ...patch } : a)));
  return (
    <fieldset className="field" data-testid="approval-requirements">
      <legend>Approvals required</legend>
      {query.isSuccess && groups.length === 0 && (
        <p className="notice warning">
          Your organization has no approver groups yet: an OWNER or ADMIN creates them on the <a href="/members#approver-groups">Members</a>{" "}
          page.
        </p>
      )}
      {approvals.map((approval, j) => {
        const group = byId.get(approval.groupId);
        return (
          <div className="row" key={j} data-testid="approval-requirement">
            <SelectField
              label={`Approver group ${j + 1}`}
              value={approval.groupId}
              onChange={(e) => set(j, { groupId: e.target.value })}
              error={errorAt(at(`.${j}.groupId`))}
            >
              <option value="">Pick a group…</option>
              {/* A group the rule names that is gone is still shown, by its id, so the rule can be read and changed. */}
              {approval.groupId && !group && <option value={approval.groupId}>unknown group {approval.groupId}</option>}
              {groups.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name} ({g.memberIds.length} {g.memberIds.length === 1 ? "member" : "members"})
                </option>
              ))}
            </SelectField>
            <TextField
              label={`Quorum ${j + 1}`}
              type="number"
              min={1}
              max={group?.memberIds.length}
              value={approval.quorum}
              onChange={(e) => set(j, { quorum: e.target.value })}
              // The service names the whole line (`rules.N.approvals.M`) for a quorum above the group's size or a group gone.
              error={errorAt(at(`.${j}.quorum`)) ?? (errorAt(at(`.${j}.groupId`)) ? undefined : errorAt(at(`.${j}`)))}
              hint={group ? `of ${group.memberIds.length} must approve` : "members who must approve"}
            />
            {editable && approvals.length > 1 && (
              <div className="field">
                <button type="button" className="secondary small" onClick={() => onChange(approvals.filter((_, k) => k !== j))}>
                  Remove group {j + 1}
                </button>
              </div>
            )}
          </div>
        );
      })}
      {errorAt(at("")) && approvals.length === 0 && (
        <div className="field-error" role="alert">
          {errorAt(at(""))}
        </div>
      )}
      {editable && approvals.length < 10 && (
        <button type="button" className="secondary small" onClick={() => onChange([...approvals, emptyApproval()])}>
          Add approver group
        </button>
      )}
    </fieldset>
  );
}
