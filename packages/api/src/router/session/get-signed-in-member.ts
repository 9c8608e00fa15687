import { getSignedInMember } from "@qc/core";
import { MEMBER_ROLES } from "@qc/domain";
import { z } from "zod";
import { uuid } from "../../schemas/common";
import { sessionProcedure } from "../../trpc";

/**
 * Dashboard only (tRPC `session.me`, session; no /v1 route): the organization and the signed-in
 * member with their current role, which every signed-in page names and which decides the actions
 * a page offers (the API refuses the others anyway).
 */
export const getSignedInMemberProcedure = sessionProcedure
  .meta({ scope: "read", action: "read" })
  .input(z.object({}).optional())
  .output(
    z.object({
      tenant: z.object({ id: uuid, name: z.string() }),
      member: z.object({ userId: uuid, email: z.string(), name: z.string().nullable(), role: z.enum(MEMBER_ROLES) }),
    }),
  )
  .query(({ ctx }) => getSignedInMember(ctx.deps, { tenantId: ctx.auth.tenantId, userId: ctx.userId }));
