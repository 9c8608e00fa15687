import { listInvitations } from "@qc/core";
import { z } from "zod";
import { EXAMPLE_LAST_PAGE } from "../../openapi-examples";
import { pageInfo, pageQuery } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_INVITATION, invitationRecord } from "./schemas";

export const listInvitationsProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/members/invitations",
      tags: ["members"],
      summary: "List invitations",
      description:
        "The tenant's invitations, newest first, each `PENDING`, `ACCEPTED`, `REVOKED` or `EXPIRED` (pending past its " +
        "7 days). Paginate with `cursor`.",
      protect: true,
    },
    example: { input: { limit: 50 }, output: { invitations: [EXAMPLE_INVITATION], page: EXAMPLE_LAST_PAGE } },
  })
  .input(pageQuery)
  .output(z.object({ invitations: z.array(invitationRecord), page: pageInfo }))
  .query(({ ctx, input }) => listInvitations(ctx.deps, { tenantId: ctx.auth.tenantId, ...input }));
