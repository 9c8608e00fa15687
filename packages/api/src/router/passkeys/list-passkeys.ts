import { listPasskeys } from "@qc/core";
import { z } from "zod";
import { uuid } from "../../schemas/common";
import { authedProcedure, sessionProcedure } from "../../trpc";
import { EXAMPLE } from "../../openapi-examples";
import { EXAMPLE_PASSKEY, passkeyRecord } from "./schemas";

const passkeyList = z.object({ passkeys: z.array(passkeyRecord) });

export const listOwnPasskeysProcedure = sessionProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/members/me/passkeys",
      tags: ["members"],
      summary: "List my passkeys",
      description: "Dashboard session only. The signed-in member's passkeys, newest first, without key material.",
      protect: true,
    },
    example: { output: { passkeys: [EXAMPLE_PASSKEY] } },
  })
  .input(z.object({}).optional())
  .output(passkeyList)
  .query(async ({ ctx }) => ({ passkeys: await listPasskeys(ctx.deps, { tenantId: ctx.auth.tenantId, userId: ctx.userId }) }));

export const listMemberPasskeysProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/members/{userId}/passkeys",
      tags: ["members"],
      summary: "List a member's passkeys",
      description: "A member's passkeys, newest first, without key material (empty for a user of another tenant).",
      protect: true,
    },
    example: { input: { userId: EXAMPLE.userId }, output: { passkeys: [EXAMPLE_PASSKEY] } },
  })
  .input(z.object({ userId: uuid }))
  .output(passkeyList)
  .query(async ({ ctx, input }) => ({ passkeys: await listPasskeys(ctx.deps, { tenantId: ctx.auth.tenantId, userId: input.userId }) }));
