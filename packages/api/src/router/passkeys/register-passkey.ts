import { finishPasskeyRegistration, type RegistrationResponseJSON } from "@qc/core";
import { z } from "zod";
import { uuid } from "../../schemas/common";
import { sessionProcedure } from "../../trpc";
import {
  EXAMPLE_CHALLENGE_ID,
  EXAMPLE_PASSKEY,
  EXAMPLE_REGISTRATION_RESPONSE,
  passkeyName,
  passkeyRecord,
  registrationResponse,
} from "./schemas";

export const registerPasskeyProcedure = sessionProcedure
  .meta({
    scope: "admin",
    action: "own_keys",
    successStatus: 201,
    openapi: {
      method: "POST",
      path: "/v1/members/me/passkeys",
      tags: ["members"],
      summary: "Register a passkey",
      description:
        "Dashboard session only. The browser's answer to the options of `POST /v1/members/me/passkeys/options`, " +
        "verified against that challenge (used up by this call, verified or not), PUBLIC_URL's origin and host. An " +
        "expired or used challenge is 400 `INVALID_TOKEN`; an answer that does not verify is 400 `VALIDATION_FAILED`; " +
        "a passkey already registered is 409 `CONFLICT`. Audited as `passkey.added`.",
      protect: true,
    },
    errors: ["INVALID_TOKEN", "CONFLICT"],
    example: {
      input: { challengeId: EXAMPLE_CHALLENGE_ID, name: "YubiKey 5C", response: EXAMPLE_REGISTRATION_RESPONSE },
      output: EXAMPLE_PASSKEY,
    },
  })
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
