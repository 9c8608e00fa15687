"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { Member } from "../../../src/dashboard/router-types";
import { useTRPC } from "../../../src/dashboard/trpc";
import { DataTable } from "../../_components/data-table";
import { CheckboxGroup, FormError, TextField } from "../../_components/field";
import { formFailure } from "../../_components/form-failure";
import { Empty, QueryView } from "../../_components/states";
import { useSignedInMember } from "../../_components/use-signed-in-member";
import { useApproverGroups, type ApproverGroup } from "../_approvals/use-approver-groups";
import { useMemberNames } from "../_approvals/use-member-names";

/**
 * Approver groups (CONTRACT §15): named sets of members that a policy rule with
 * `REQUIRE_APPROVAL` requires, each to a quorum. Everyone reads them; an OWNER or ADMIN creates,
 * renames, changes the members of and deletes them. A group the current policy names cannot be
 * deleted, nor shrunk below a quorum the policy asks of it: the API's 409 is shown beside it.
 */
export function ApproverGroups() {
  const { query, groups } = useApproverGroups();
  const { members, nameOf } = useMemberNames();
  const administer = useSignedInMember().can("administer");
  return (
    <section className="panel" id="approver-groups" aria-labelledby="approver-groups-heading">
      <h2 id="approver-groups-heading">Approver groups</h2>
      <p className="small muted">
        A policy rule with the action <code>REQUIRE_APPROVAL</code> names groups and a quorum for each: the transfer waits until that many
        members of every named group approve it in their signer (see <a href="/policies">Policies</a>).
      </p>
      <QueryView query={query} what="approver groups" errorTitle="Could not load approver groups">
        {() =>
          groups.length === 0 ? (
            <Empty>No approver groups yet.</Empty>
          ) : (
            <DataTable
              headers={["Group", "Members", ...(administer ? ["Actions"] : [])]}
              rows={groups}
              rowKey={(group) => group.id}
              renderRow={(group) => <GroupRow group={group} members={members} nameOf={nameOf} administer={administer} />}
            />
          )
        }
      </QueryView>
      {administer && <CreateGroup members={members} />}
    </section>
  );
}

function useInvalidateGroups() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: trpc.approverGroups.list.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.members.list.queryKey() });
  };
}

/** Members to pick from: everyone listed, by name and email. */
const memberOptions = (members: Member[]) =>
  members.map((m) => ({ value: m.userId, label: m.name ? `${m.name} (${m.email}, ${m.role})` : `${m.email} (${m.role})` }));

function CreateGroup({ members }: { members: Member[] }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateGroups();
  const [name, setName] = useState("");
  const [memberIds, setMemberIds] = useState<string[]>([]);
  const create = useMutation(
    trpc.approverGroups.create.mutationOptions({
      onSuccess: () => {
        setName("");
        setMemberIds([]);
        invalidate();
      },
    }),
  );
  const failure = formFailure(create.error, ["name", "memberIds"]);

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ name: name.trim(), memberIds });
  }

  return (
    <form onSubmit={submit} noValidate data-testid="create-approver-group">
      <h3>New approver group</h3>
      <TextField label="Group name" value={name} onChange={(e) => setName(e.target.value)} error={failure.field("name")} />
      <CheckboxGroup
        legend="Members of the group"
        options={memberOptions(members)}
        value={memberIds}
        onChange={setMemberIds}
        error={failure.field("memberIds")}
      />
      <FormError message={failure.form} />
      <button type="submit" disabled={create.isPending || !name.trim()}>
        Create approver group
      </button>
    </form>
  );
}

function GroupRow({
  group,
  members,
  nameOf,
  administer,
}: {
  group: ApproverGroup;
  members: Member[];
  nameOf: (userId: string) => string;
  administer: boolean;
}) {
  const trpc = useTRPC();
  const invalidate = useInvalidateGroups();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(group.name);
  const [memberIds, setMemberIds] = useState<string[]>(group.memberIds);
  const update = useMutation(
    trpc.approverGroups.update.mutationOptions({
      onSuccess: () => {
        setEditing(false);
        invalidate();
      },
    }),
  );
  const remove = useMutation(trpc.approverGroups.delete.mutationOptions({ onSuccess: invalidate }));
  const failure = formFailure(update.error, ["name", "memberIds"]);

  function submit(event: FormEvent) {
    event.preventDefault();
    update.mutate({ groupId: group.id, name: name.trim(), memberIds });
  }
  function startEditing() {
    setName(group.name);
    setMemberIds(group.memberIds);
    update.reset();
    setEditing(true);
  }

  return (
    <tr data-testid="approver-group-row" data-group={group.name}>
      <td>{group.name}</td>
      <td>
        {group.memberIds.length === 0 ? (
          <span className="muted">no members</span>
        ) : (
          group.memberIds.map((id) => <div key={id}>{nameOf(id)}</div>)
        )}
      </td>
      {administer && (
        <td>
          {editing ? (
            <form onSubmit={submit} noValidate>
              <TextField
                label={`Name of ${group.name}`}
                value={name}
                onChange={(e) => setName(e.target.value)}
                error={failure.field("name")}
              />
              <CheckboxGroup
                legend={`Members of ${group.name}`}
                options={memberOptions(members)}
                value={memberIds}
                onChange={setMemberIds}
                error={failure.field("memberIds")}
              />
              <FormError message={failure.form} />
              <div className="actions">
                <button type="submit" className="small" disabled={update.isPending || !name.trim()}>
                  Save group
                </button>
                <button type="button" className="secondary small" onClick={() => setEditing(false)}>
                  Cancel
                </button>
              </div>
            </form>
          ) : (
            <div className="actions">
              <button type="button" className="secondary small" onClick={startEditing}>
                Edit {group.name}
              </button>
              <button
                type="button"
                className="danger small"
                disabled={remove.isPending}
                onClick={() => window.confirm(`Delete the approver group ${group.name}?`) && remove.mutate({ groupId: group.id })}
              >
                Delete {group.name}
              </button>
            </div>
          )}
          <FormError message={formFailure(remove.error, []).form} />
        </td>
      )}
    </tr>
  );
}
