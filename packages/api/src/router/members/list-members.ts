import { listMembers } from "@qc/core";
import { z } from "zod";
import { pageInfo, pageQuery } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_LAST_PAGE } from "../../openapi-examples";
import { EXAMPLE_MEMBER, memberRecord } from "./schemas";

export const listMembersProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/members",
      tags: ["members"],
      summary: "List members",
      description: "The tenant's members with their roles, newest first. Paginate with `cursor`.",
      protect: true,
    },
    example: { input: { limit: 50 }, output: { members: [EXAMPLE_MEMBER], page: EXAMPLE_LAST_PAGE } },
  })
  .input(pageQuery)
  .output(z.object({ members: z.array(memberRecord), page: pageInfo }))
  .query(({ ctx, input }) => listMembers(ctx.deps, { tenantId: ctx.auth.tenantId, ...input }));
