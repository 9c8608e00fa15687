import { listPasskeys } from "@qc/core";
import { z } from "zod";
import { uuid } from "../../schemas/common";
import { authedProcedure, sessionProcedure } from "../../trpc";
import { EXAMPLE } from "../../openapi-examples";
import { EXAMPLE_PASSKEY, passkeyRecord } from "./schemas";

const passkeyList = z.object({ passkeys: z.array(passkeyRecord) });

/** Dashboard only (tRPC `passkeys.listOwn`, session): the signed-in member's passkeys, newest first. */
export const listOwnPasskeysProcedure = sessionProcedure
  .meta({ scope: "read", action: "read" })
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
      description:
        "A member's passkeys (the dashboard's second factor), newest first, without key material; empty for a user of " + "another tenant.",
      protect: true,
    },
    example: { input: { userId: EXAMPLE.userId }, output: { passkeys: [EXAMPLE_PASSKEY] } },
  })
  .input(z.object({ userId: uuid.meta({ description: "the member's user id" }) }))
  .output(passkeyList)
  .query(async ({ ctx, input }) => ({ passkeys: await listPasskeys(ctx.deps, { tenantId: ctx.auth.tenantId, userId: input.userId }) }));
