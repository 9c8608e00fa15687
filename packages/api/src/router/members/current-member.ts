import { getCurrentMember } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_MEMBER, memberRecord } from "./schemas";

/** `GET /v1/members/me`: who a credential acts for; the reference signer signs its approval key's proof for this member. */
export const currentMemberProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/members/me",
      tags: ["members"],
      summary: "The member this credential acts for",
      description:
        "The member the request acts for: the session's user, or the member who created the API key, as `GET /v1/members` " +
        "lists them. A signer reads `userId` here to sign an approval key's enrollment proof.",
      protect: true,
    },
    errors: ["NOT_FOUND"],
    example: { input: {}, output: EXAMPLE_MEMBER },
  })
  .input(z.object({}))
  .output(memberRecord)
  .query(({ ctx }) => getCurrentMember(ctx.deps, { tenantId: ctx.auth.tenantId, userId: ctx.auth.userId }));
