import { startPasskeyRegistration } from "@qc/core";
import { z } from "zod";
import { uuid } from "../../schemas/common";
import { sessionProcedure } from "../../trpc";
import { ceremonyOptions } from "./schemas";

/**
 * Dashboard only (tRPC `passkeys.registrationOptions`, session): the options for
 * `navigator.credentials.create()` (@simplewebauthn/browser's `startRegistration`), bound to
 * PUBLIC_URL's host, the member's passkeys excluded, and the id of a single-use challenge valid 5
 * minutes. A key has no browser to register a passkey with.
 */
export const passkeyRegistrationOptionsProcedure = sessionProcedure
  .meta({ scope: "admin", action: "own_keys" })
  .input(z.object({}).optional())
  .output(z.object({ challengeId: uuid, options: ceremonyOptions }))
  .mutation(async ({ ctx }) => {
    const { challengeId, options } = await startPasskeyRegistration(ctx.deps, { tenantId: ctx.auth.tenantId, userId: ctx.userId });
    // A copy: the output schema takes any object with a challenge, the library's interface has no index signature.
    return { challengeId, options: { ...options } };
  });
