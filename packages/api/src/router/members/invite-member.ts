import { inviteMember } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { emailAddress } from "../signup/schemas";
import { EXAMPLE_INVITATION, invitationRecord, memberRole } from "./schemas";

export const inviteMemberProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "manage_members",
    successStatus: 201,
    openapi: {
      method: "POST",
      path: "/v1/members/invitations",
      tags: ["members"],
      summary: "Invite a member",
      description:
        "Emails `email` a link `<PUBLIC_URL>/accept-invite?token=…` to join the tenant with `role` (single use, valid 7 " +
        "days; accept with `POST /v1/members/invitations/accept`). Only an `OWNER` invites an `OWNER` (403 " +
        "`INSUFFICIENT_ROLE`). An email that already has an account is 409 `EMAIL_ALREADY_REGISTERED`. A newer " +
        "invitation to the same address revokes the earlier pending one.",
      protect: true,
    },
    errors: ["INSUFFICIENT_ROLE", "EMAIL_ALREADY_REGISTERED"],
    example: { input: { email: EXAMPLE_INVITATION.email, role: EXAMPLE_INVITATION.role }, output: EXAMPLE_INVITATION },
  })
  .input(z.object({ email: emailAddress, role: memberRole }))
  .output(invitationRecord)
  .mutation(({ ctx, input }) =>
    inviteMember(ctx.deps, { tenantId: ctx.auth.tenantId, email: input.email, role: input.role, actor: ctx.actor }),
  );
