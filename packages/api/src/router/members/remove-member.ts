import { removeMember } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_MEMBER } from "./schemas";

export const removeMemberProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "manage_members",
    successStatus: 204,
    openapi: {
      method: "DELETE",
      path: "/v1/members/{userId}",
      tags: ["members"],
      summary: "Remove a member",
      description:
        "Takes the member out of the tenant: their sessions end and every API key they created is revoked, at once on " +
        "every instance; their past actions stay theirs in the audit trail. The address stays taken (inviting it again " +
        "is 409 `EMAIL_ALREADY_REGISTERED`). Only an `OWNER` removes an `OWNER` (403 `INSUFFICIENT_ROLE`); removing the " +
        "last `OWNER` is 409 `LAST_OWNER`.",
      protect: true,
    },
    errors: ["NOT_FOUND", "INSUFFICIENT_ROLE", "LAST_OWNER"],
    example: { input: { userId: EXAMPLE_MEMBER.userId }, output: undefined },
  })
  .input(z.object({ userId: z.uuid().meta({ description: "the member's user id" }) }))
  .output(z.void())
  .mutation(({ ctx, input }) => removeMember(ctx.deps, { tenantId: ctx.auth.tenantId, userId: input.userId, actor: ctx.actor }));
