import { logInWithPasskey, SESSION_TTL_MS, type AuthenticationResponseJSON } from "@qc/core";
import { z } from "zod";
import { sessionCookie } from "../../http-headers";
import { uuid } from "../../schemas/common";
import { publicProcedure } from "../../trpc";
import { EXAMPLE } from "../../openapi-examples";
import { loginSession } from "../auth/schemas";
import { authenticationResponse, EXAMPLE_AUTHENTICATION_RESPONSE, EXAMPLE_CHALLENGE_ID } from "./schemas";

export const logInWithPasskeyProcedure = publicProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/v1/auth/login/passkey",
      tags: ["auth"],
      protect: false,
      summary: "Log in: the passkey step",
      description:
        "Completes a login whose password step answered `passkeyRequired`: the `challengeId` it gave and the answer " +
        "of @simplewebauthn/browser's `startAuthentication(options)`. Answers as `POST /v1/auth/login` does (token and " +
        "cookie). The challenge is used up by this call: a wrong, replayed or cloned passkey's answer (its signature " +
        "counter did not grow), an expired or used challenge all get the same 401, count towards the lockout of the " +
        "source and the account, and need the password step again. Audited: the `auth.logged_in` row names the passkey.",
    },
    errors: ["UNAUTHENTICATED", "LOCKED_OUT"],
    example: {
      input: { challengeId: EXAMPLE_CHALLENGE_ID, response: EXAMPLE_AUTHENTICATION_RESPONSE },
      output: {
        token: EXAMPLE.sessionToken,
        expiresAt: "2026-11-21T22:00:00.000Z",
        user: { id: EXAMPLE.userId, email: "alice@example.com", name: "Alice Martin" },
        tenant: { id: EXAMPLE.tenantId, name: "Acme Treasury Ltd", status: "VERIFIED" },
      },
    },
  })
  .input(z.object({ challengeId: uuid, response: authenticationResponse }))
  .output(loginSession)
  .mutation(async ({ ctx, input }) => {
    const result = await logInWithPasskey(ctx.deps, {
      challengeId: input.challengeId,
      response: input.response as AuthenticationResponseJSON,
      ip: ctx.request.ip,
      requestId: ctx.request.requestId,
      userAgent: ctx.request.headers["user-agent"],
    });
    ctx.responseHeaders.set("Set-Cookie", sessionCookie(result.token, SESSION_TTL_MS / 1000));
    ctx.responseHeaders.set("Cache-Control", "no-store");
    return result;
  });
