import { removePasskey } from "@qc/core";
import { z } from "zod";
import { uuid } from "../../schemas/common";
import { authedProcedure, sessionProcedure } from "../../trpc";
import { EXAMPLE } from "../../openapi-examples";
import { EXAMPLE_PASSKEY, passkeyIdParam } from "./schemas";

/**
 * Dashboard only (tRPC `passkeys.removeOwn`, session): one of the signed-in member's passkeys.
 * While the tenant requires a passkey at login, the last one cannot be removed (409
 * `PASSKEY_REQUIRED`). Audited as `passkey.removed`.
 */
export const removeOwnPasskeyProcedure = sessionProcedure
  .meta({ scope: "admin", action: "own_keys" })
  .input(z.object({ passkeyId: passkeyIdParam }))
  .output(z.void())
  .mutation(({ ctx, input }) =>
    removePasskey(ctx.deps, { tenantId: ctx.auth.tenantId, userId: ctx.userId, passkeyId: input.passkeyId, actor: ctx.actor }),
  );

export const removeMemberPasskeyProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "manage_owners",
    successStatus: 204,
    openapi: {
      method: "DELETE",
      path: "/v1/members/{userId}/passkeys/{passkeyId}",
      tags: ["members"],
      summary: "Remove a member's passkey",
      description:
        "`OWNER` only: recovery when a member lost a passkey or it was stolen (nothing else removes another member's " +
        "passkey; no email link does). A member's own last passkey, while the tenant requires one, is 409 " +
        "`PASSKEY_REQUIRED`. Audited as `passkey.removed`, with `byOwner` when it was another member's.",
      protect: true,
    },
    errors: ["NOT_FOUND", "PASSKEY_REQUIRED"],
    example: { input: { userId: EXAMPLE.userId, passkeyId: EXAMPLE_PASSKEY.id }, output: undefined },
  })
  .input(z.object({ userId: uuid.meta({ description: "the member's user id" }), passkeyId: passkeyIdParam }))
  .output(z.void())
  .mutation(({ ctx, input }) =>
    removePasskey(ctx.deps, { tenantId: ctx.auth.tenantId, userId: input.userId, passkeyId: input.passkeyId, actor: ctx.actor }),
  );
