"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "../../../src/dashboard/trpc";
import { FormError, SelectField, TextField } from "../../_components/field";
import { formFailure } from "../../_components/form-failure";
import { useApproverGroups } from "../_approvals/use-approver-groups";

/**
 * The address book's setting (`PUT /v1/settings/address-book`, OWNER or ADMIN): whether every new
 * entry waits for an approver group's quorum before its activation delay starts. The service's
 * refusals (an unknown group, a quorum above its size) land beside their field.
 */
export function ApprovalSetting() {
  const trpc = useTRPC();
  const setting = useQuery(trpc.settings.getAddressBook.queryOptions());
  if (!setting.data) return null;
  const current = setting.data.additionsRequireApproval;
  // Keyed by the stored setting, so the form starts from it again whenever it changes.
  return <SettingForm key={current ? `${current.groupId}:${current.quorum}` : "off"} current={current} />;
}

function SettingForm({ current }: { current: { groupId: string; quorum: number } | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { groups } = useApproverGroups();
  const [groupId, setGroupId] = useState(current?.groupId ?? "");
  const [quorum, setQuorum] = useState(String(current?.quorum ?? 1));
  const replace = useMutation(
    trpc.settings.replaceAddressBook.mutationOptions({
      onSuccess: (data) => queryClient.setQueryData(trpc.settings.getAddressBook.queryKey(), data),
    }),
  );
  const failure = formFailure(replace.error, ["additionsRequireApproval.groupId", "additionsRequireApproval.quorum"]);

  function submit(event: FormEvent) {
    event.preventDefault();
    replace.mutate({ additionsRequireApproval: { groupId, quorum: Number(quorum) } });
  }

  return (
    <form onSubmit={submit} noValidate className="panel" aria-labelledby="approval-setting-heading" data-testid="address-book-setting">
      <h2 id="approval-setting-heading">Additions need approval</h2>
      <p className="small muted">
        {current
          ? "On: a new entry waits AWAITING_APPROVAL for the group's quorum; its activation delay starts when the quorum is met."
          : "Off: a new entry is PENDING at once and active after the delay."}{" "}
        Entries already waiting keep the requirement they were added with.
      </p>
      <SelectField
        label="Approver group"
        value={groupId}
        onChange={(e) => setGroupId(e.target.value)}
        error={failure.field("additionsRequireApproval.groupId")}
      >
        <option value="">Choose a group</option>
        {groups.map((group) => (
          <option key={group.id} value={group.id}>
            {group.name} ({group.memberIds.length} member(s))
          </option>
        ))}
      </SelectField>
      <TextField
        label="Approvals needed"
        type="number"
        min={1}
        value={quorum}
        onChange={(e) => setQuorum(e.target.value)}
        error={failure.field("additionsRequireApproval.quorum")}
      />
      <FormError message={failure.form} />
      <button type="submit" disabled={replace.isPending || !groupId}>
        Require approval
      </button>{" "}
      {current && (
        <button type="button" disabled={replace.isPending} onClick={() => replace.mutate({ additionsRequireApproval: null })}>
          Turn off
        </button>
      )}
    </form>
  );
}
