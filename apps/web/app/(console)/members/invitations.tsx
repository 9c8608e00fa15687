"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { Invitation, MemberRole } from "../../../src/dashboard/router-types";
import { useTRPC } from "../../../src/dashboard/trpc";
import { DataTable, type Column } from "../../_components/data-table";
import { FormError, SelectField, TextField } from "../../_components/field";
import { formFailure } from "../../_components/form-failure";
import { ErrorNotice, QueryView } from "../../_components/states";
import { Time } from "../../_components/time";
import { useSignedInMember } from "../../_components/use-signed-in-member";
import { assignableRoles, mayManage, ROLE_SUMMARIES } from "./roles";

/** Pending invitations (revocable by whoever may manage the invited role) and the form that sends one. */
export function Invitations() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { can } = useSignedInMember();
  const list = useQuery(trpc.members.invitations.list.queryOptions({ limit: 50 }));
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.members.invitations.list.queryKey() });
  const revoke = useMutation(trpc.members.invitations.revoke.mutationOptions({ onSuccess: invalidate }));

  const [email, setEmail] = useState("");
  const [role, setRole] = useState<MemberRole>("VIEWER");
  const invite = useMutation(
    trpc.members.invitations.create.mutationOptions({
      onSuccess: () => {
        setEmail("");
        void invalidate();
      },
    }),
  );
  const failure = formFailure(invite.error, ["email", "role"], { EMAIL_ALREADY_REGISTERED: "email" });

  function submit(event: FormEvent) {
    event.preventDefault();
    invite.mutate({ email, role });
  }

  const columns: Column<Invitation>[] = [
    { header: "Email", cell: (invitation) => invitation.email },
    { header: "Role", cell: (invitation) => invitation.role },
    { header: "Expires", cell: (invitation) => <Time at={invitation.expiresAt} /> },
    { header: "Sent", cell: (invitation) => <Time at={invitation.createdAt} /> },
    {
      header: "Actions",
      cell: (invitation) =>
        mayManage(can, invitation.role) && (
          <button
            type="button"
            className="secondary small"
            disabled={revoke.isPending}
            onClick={() =>
              window.confirm(`Revoke the invitation of ${invitation.email}? Its link stops working.`) &&
              revoke.mutate({ invitationId: invitation.id })
            }
          >
            Revoke invitation
          </button>
        ),
    },
  ];

  return (
    <>
      <section aria-labelledby="invitations-heading">
        <h2 id="invitations-heading">Pending invitations</h2>
        <QueryView
          query={list}
          what="invitations"
          errorTitle="Could not load invitations"
          empty={(data) => data.invitations.every((i) => i.status !== "PENDING") && "No pending invitations."}
        >
          {(data) => (
            <DataTable
              columns={columns}
              rows={data.invitations.filter((i) => i.status === "PENDING")}
              rowKey={(invitation) => invitation.id}
              rowProps={(invitation) => ({ "data-testid": "invitation-row", "data-email": invitation.email })}
            />
          )}
        </QueryView>
        <ErrorNotice error={revoke.error} title="Could not revoke the invitation" />
      </section>
      {can("manage_members") && (
        <section className="panel" aria-labelledby="invite-heading">
          <h2 id="invite-heading">Invite a member</h2>
          <form onSubmit={submit} noValidate>
            <TextField
              label="Email"
              type="email"
              autoComplete="off"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
              error={failure.field("email")}
              hint="The invitation link is valid for 7 days and works once."
            />
            <SelectField
              label="Role"
              value={role}
              onChange={(e) => setRole(e.target.value as MemberRole)}
              error={failure.field("role")}
              hint={ROLE_SUMMARIES[role]}
            >
              {assignableRoles(can).map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </SelectField>
            <FormError message={failure.form} />
            <button type="submit" disabled={invite.isPending}>
              Send invitation
            </button>
          </form>
          {invite.isSuccess && (
            <p className="notice success" role="status">
              Invitation sent to {invite.data.email} as {invite.data.role}.
            </p>
          )}
        </section>
      )}
    </>
  );
}
