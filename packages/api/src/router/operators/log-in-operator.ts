import { logInOperator, logInOperatorWithPasskey, type AuthenticationResponseJSON, type LogInOperatorResult } from "@qc/core";
import { operatorSessionCookie } from "../../http-headers";
import { z } from "zod";
import { timestamp, uuid } from "../../schemas/common";
import type { Context } from "../../context";
import { publicProcedure } from "../../trpc";
import { passkeyChallenge } from "../auth/schemas";
import { authenticationResponse } from "../passkeys/schemas";
import { emailAddress } from "../signup/schemas";
import { operatorRecord } from "./schemas";

const operatorSession = z.object({ expiresAt: timestamp, operator: operatorRecord });

/** Sets the console cookie; the token itself is never in the body. */
function answerWithSession(ctx: Pick<Context, "responseHeaders">, result: LogInOperatorResult) {
  ctx.responseHeaders.set("Set-Cookie", operatorSessionCookie(result.token));
  ctx.responseHeaders.set("Cache-Control", "no-store");
  return { expiresAt: result.expiresAt, operator: result.operator };
}

/**
 * The console's login (tRPC only): sets the operator cookie. While the service requires
 * operators' passkeys (`operators.updateSecuritySettings`), the right password answers
 * `{passkeyRequired: true, challengeId, options}` and no cookie; `operators.loginPasskey` ends it.
 */
export const logInOperatorProcedure = publicProcedure
  .input(z.object({ email: emailAddress, password: z.string().min(1, "required").max(1024) }))
  .output(z.union([operatorSession, passkeyChallenge]))
  .mutation(async ({ ctx, input }) => {
    const userAgent = ctx.request.headers["user-agent"];
    const result = await logInOperator(
      { db: ctx.deps.database.db, now: ctx.deps.now, config: ctx.deps.config, authenticator: ctx.deps.authenticator },
      { email: input.email, password: input.password, ip: ctx.request.ip, requestId: ctx.request.requestId, userAgent },
    );
    if ("passkeyRequired" in result) {
      ctx.responseHeaders.set("Cache-Control", "no-store");
      return { ...result, options: { ...result.options } };
    }
    return answerWithSession(ctx, result);
  });

/**
 * The console login's passkey step (tRPC only): the `challengeId` the password step gave and
 * @simplewebauthn/browser's `startAuthentication(options)` answer. A wrong, replayed or cloned
 * answer, an expired or used challenge: the same 401, counted towards the lockouts, audited.
 */
export const logInOperatorWithPasskeyProcedure = publicProcedure
  .input(z.object({ challengeId: uuid, response: authenticationResponse }))
  .output(operatorSession)
  .mutation(async ({ ctx, input }) => {
    const result = await logInOperatorWithPasskey(
      { db: ctx.deps.database.db, now: ctx.deps.now, config: ctx.deps.config, authenticator: ctx.deps.authenticator },
      {
        challengeId: input.challengeId,
        response: input.response as AuthenticationResponseJSON,
        ip: ctx.request.ip,
        requestId: ctx.request.requestId,
        userAgent: ctx.request.headers["user-agent"],
      },
    );
    return answerWithSession(ctx, result);
  });
