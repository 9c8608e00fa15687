import { revokeInvitation } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_INVITATION } from "./schemas";

export const revokeInvitationProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "manage_members",
    successStatus: 204,
    openapi: {
      method: "DELETE",
      path: "/v1/members/invitations/{invitationId}",
      tags: ["members"],
      summary: "Revoke an invitation",
      description:
        "Its link stops working at once (accepting it is then 400 `INVALID_TOKEN`). An invitation to be an `OWNER` takes " +
        "an `OWNER` (403 `INSUFFICIENT_ROLE`). An invitation already accepted or revoked stays as it is, with the same " +
        "answer.",
      protect: true,
    },
    errors: ["NOT_FOUND", "INSUFFICIENT_ROLE"],
    example: { input: { invitationId: EXAMPLE_INVITATION.id }, output: undefined },
  })
  .input(z.object({ invitationId: z.uuid().meta({ description: "the invitation's id" }) }))
  .output(z.void())
  .mutation(({ ctx, input }) =>
    revokeInvitation(ctx.deps, { tenantId: ctx.auth.tenantId, invitationId: input.invitationId, actor: ctx.actor }),
  );
