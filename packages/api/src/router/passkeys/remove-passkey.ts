import { removePasskey } from "@qc/core";
import { z } from "zod";
import { uuid } from "../../schemas/common";
import { authedProcedure, sessionProcedure } from "../../trpc";
import { EXAMPLE } from "../../openapi-examples";
import { EXAMPLE_PASSKEY, passkeyIdParam } from "./schemas";

const removed = z.object({ id: uuid, deleted: z.literal(true) });

export const removeOwnPasskeyProcedure = sessionProcedure
  .meta({
    scope: "admin",
    action: "own_keys",
    openapi: {
      method: "DELETE",
      path: "/v1/members/me/passkeys/{passkeyId}",
      tags: ["members"],
      summary: "Remove one of my passkeys",
      description:
        "Dashboard session only. While the tenant requires a passkey at login, the member's last one cannot be " +
        "removed (409 `PASSKEY_REQUIRED`). Audited as `passkey.removed`.",
      protect: true,
    },
    errors: ["NOT_FOUND", "PASSKEY_REQUIRED"],
    example: { input: { passkeyId: EXAMPLE_PASSKEY.id }, output: { id: EXAMPLE_PASSKEY.id, deleted: true } },
  })
  .input(z.object({ passkeyId: passkeyIdParam }))
  .output(removed)
  .mutation(async ({ ctx, input }) => {
    await removePasskey(ctx.deps, { tenantId: ctx.auth.tenantId, userId: ctx.userId, passkeyId: input.passkeyId, actor: ctx.actor });
    return { id: input.passkeyId, deleted: true as const };
  });

export const removeMemberPasskeyProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "manage_owners",
    openapi: {
      method: "DELETE",
      path: "/v1/members/{userId}/passkeys/{passkeyId}",
      tags: ["members"],
      summary: "Remove a member's passkey",
      description:
        "OWNER only: recovery when a member lost a passkey or it was stolen (nothing else, no email, removes one). " +
        "Audited as `passkey.removed` with `byOwner`.",
      protect: true,
    },
    errors: ["NOT_FOUND", "PASSKEY_REQUIRED"],
    example: { input: { userId: EXAMPLE.userId, passkeyId: EXAMPLE_PASSKEY.id }, output: { id: EXAMPLE_PASSKEY.id, deleted: true } },
  })
  .input(z.object({ userId: uuid, passkeyId: passkeyIdParam }))
  .output(removed)
  .mutation(async ({ ctx, input }) => {
    await removePasskey(ctx.deps, { tenantId: ctx.auth.tenantId, userId: input.userId, passkeyId: input.passkeyId, actor: ctx.actor });
    return { id: input.passkeyId, deleted: true as const };
  });
