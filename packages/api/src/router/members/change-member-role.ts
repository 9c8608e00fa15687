import { changeMemberRole } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_MEMBER, memberRecord, memberRole } from "./schemas";

export const changeMemberRoleProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "manage_members",
    openapi: {
      method: "PUT",
      path: "/v1/members/{userId}",
      tags: ["members"],
      summary: "Change a member's role",
      description:
        "Gives the member another role; it applies at once to the member's sessions and API keys. Only an `OWNER` " +
        "makes or unmakes an `OWNER` (403 `INSUFFICIENT_ROLE`); demoting the last `OWNER` is 409 `LAST_OWNER`. The " +
        "same role again changes nothing.",
      protect: true,
    },
    errors: ["NOT_FOUND", "INSUFFICIENT_ROLE", "LAST_OWNER"],
    example: { input: { userId: EXAMPLE_MEMBER.userId, role: "ADMIN" }, output: { ...EXAMPLE_MEMBER, role: "ADMIN" } },
  })
  .input(z.object({ userId: z.uuid().meta({ description: "the member's user id" }), role: memberRole }))
  .output(memberRecord)
  .mutation(({ ctx, input }) =>
    changeMemberRole(ctx.deps, { tenantId: ctx.auth.tenantId, userId: input.userId, role: input.role, actor: ctx.actor }),
  );
