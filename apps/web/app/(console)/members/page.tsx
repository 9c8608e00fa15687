"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { Member, MemberRole } from "../../../src/dashboard/router-types";
import { useTRPC } from "../../../src/dashboard/trpc";
import { DataTable } from "../../_components/data-table";
import { FormError, SelectField } from "../../_components/field";
import { formFailure } from "../../_components/form-failure";
import { Pager, usePager } from "../../_components/pager";
import { QueryView } from "../../_components/states";
import { Time } from "../../_components/time";
import { useSignedInMember } from "../../_components/use-signed-in-member";
import { useApproverGroups } from "../_approvals/use-approver-groups";
import { ApproverGroups } from "./approver-groups";
import { Invitations } from "./invitations";
import { assignableRoles, mayManage, ROLE_SUMMARIES } from "./roles";

const MEMBER_HEADERS = ["Name", "Email", "Role", "Approver groups", "Passkeys", "Member since", "Actions"];

export default function MembersPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pager = usePager();
  const list = useQuery(trpc.members.list.queryOptions({ limit: 50, cursor: pager.cursor }));
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.members.list.queryKey() });

  return (
    <>
      <h1>Members</h1>
      <p>
        Everyone in your organization, each with one role. A role change applies at once to the member&apos;s sessions and API keys;
        removing a member ends their sessions and revokes every API key they created.
      </p>
      <QueryView query={list} what="members" errorTitle="Could not load members">
        {(data) => (
          <>
            <DataTable
              headers={MEMBER_HEADERS}
              rows={data.members}
              rowKey={(member) => member.userId}
              renderRow={(member) => <MemberRow member={member} onChanged={invalidate} />}
            />
            <Pager pager={pager} page={data.page} />
          </>
        )}
      </QueryView>
      <Invitations />
      <ApproverGroups />
    </>
  );
}

function MemberRow({ member, onChanged }: { member: Member; onChanged: () => void }) {
  const trpc = useTRPC();
  const { me, can } = useSignedInMember();
  const [role, setRole] = useState<MemberRole>(member.role);
  const { nameOf: groupName } = useApproverGroups();
  const changeRole = useMutation(trpc.members.changeRole.mutationOptions({ onSuccess: onChanged }));
  const remove = useMutation(trpc.members.remove.mutationOptions({ onSuccess: onChanged }));
  const self = me?.member.userId === member.userId;
  const who = member.name ?? member.email;
  // Only an OWNER changes or removes an owner, or makes one; nobody removes themselves here.
  const manageable = mayManage(can, member.role);

  function submit(event: FormEvent) {
    event.preventDefault();
    changeRole.mutate({ userId: member.userId, role });
  }

  return (
    <tr data-testid="member-row" data-email={member.email}>
      <td>
        {member.name ?? <span className="muted">—</span>}
        {self && <span className="muted"> (you)</span>}
      </td>
      <td>{member.email}</td>
      <td data-testid="member-role-cell">{member.role}</td>
      <td>{member.approverGroupIds.map(groupName).join(", ") || <span className="muted">—</span>}</td>
      <td>{member.passkeys}</td>
      <td>
        <Time at={member.createdAt} />
      </td>
      <td>
        {manageable ? (
          <>
            <form className="row" onSubmit={submit}>
              <SelectField
                label={`Role of ${who}`}
                value={role}
                onChange={(e) => setRole(e.target.value as MemberRole)}
                hint={ROLE_SUMMARIES[role]}
              >
                {assignableRoles(can).map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </SelectField>
              <div className="field">
                <button type="submit" className="secondary small" disabled={changeRole.isPending || role === member.role}>
                  Change role
                </button>
              </div>
            </form>
            <FormError message={formFailure(changeRole.error, []).form} />
            {!self && (
              <div className="actions">
                <button
                  type="button"
                  className="danger small"
                  disabled={remove.isPending}
                  onClick={() =>
                    window.confirm(
                      `Remove ${who} from the organization? Their sessions end and every API key they created is revoked at once.`,
                    ) && remove.mutate({ userId: member.userId })
                  }
                >
                  Remove member
                </button>
              </div>
            )}
            <FormError message={formFailure(remove.error, []).form} />
          </>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
    </tr>
  );
}
