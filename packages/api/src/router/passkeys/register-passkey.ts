import { finishPasskeyRegistration, type RegistrationResponseJSON } from "@qc/core";
import { z } from "zod";
import { uuid } from "../../schemas/common";
import { sessionProcedure } from "../../trpc";
import { passkeyName, passkeyRecord, registrationResponse } from "./schemas";

/**
 * Dashboard only (tRPC `passkeys.register`, session): the browser's answer to
 * `passkeys.registrationOptions`, verified against that challenge (used up by this call, verified
 * or not), PUBLIC_URL's origin and host. An expired or used challenge is 400 `INVALID_TOKEN`; an
 * answer that does not verify is 400 `VALIDATION_FAILED`; a passkey already registered is 409
 * `CONFLICT`. Audited as `passkey.added`.
 */
export const registerPasskeyProcedure = sessionProcedure
  .meta({ scope: "admin", action: "own_keys" })
  .input(z.object({ challengeId: uuid, name: passkeyName, response: registrationResponse }))
  .output(passkeyRecord)
  .mutation(({ ctx, input }) =>
    finishPasskeyRegistration(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      userId: ctx.userId,
      actor: ctx.actor,
      challengeId: input.challengeId,
      name: input.name,
      response: input.response as RegistrationResponseJSON,
    }),
  );
