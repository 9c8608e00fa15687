import { startPasskeyRegistration } from "@qc/core";
import { z } from "zod";
import { uuid } from "../../schemas/common";
import { sessionProcedure } from "../../trpc";
import { ceremonyOptions, EXAMPLE_CHALLENGE_ID } from "./schemas";

export const passkeyRegistrationOptionsProcedure = sessionProcedure
  .meta({
    scope: "admin",
    action: "own_keys",
    openapi: {
      method: "POST",
      path: "/v1/members/me/passkeys/options",
      tags: ["members"],
      summary: "Start registering a passkey",
      description:
        "Dashboard session only. Options for `navigator.credentials.create()` (pass them to @simplewebauthn/browser's " +
        "`startRegistration`), bound to PUBLIC_URL's host, with the member's passkeys excluded, and the id of a " +
        "single-use challenge valid 5 minutes. Send the browser's answer to `POST /v1/members/me/passkeys`.",
      protect: true,
    },
    errors: ["CONFLICT"],
    example: {
      output: {
        challengeId: EXAMPLE_CHALLENGE_ID,
        options: { challenge: "3q2-7wAAAAAAAAAAAAAAAA", rp: { name: "Quantum Custody", id: "custody.example.com" } },
      },
    },
  })
  .input(z.object({}).optional())
  .output(z.object({ challengeId: uuid, options: ceremonyOptions }))
  .mutation(async ({ ctx }) => {
    const { challengeId, options } = await startPasskeyRegistration(ctx.deps, { tenantId: ctx.auth.tenantId, userId: ctx.userId });
    // A copy: the output schema takes any object with a challenge, the library's interface has no index signature.
    return { challengeId, options: { ...options } };
  });
