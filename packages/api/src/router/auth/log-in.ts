import { logIn, SESSION_TTL_MS } from "@qc/core";
import { z } from "zod";
import { sessionCookie } from "../../http-headers";
import { publicProcedure } from "../../trpc";
import { emailAddress } from "../signup/schemas";
import { EXAMPLE } from "../../openapi-examples";
import { loginSession, passkeyChallenge } from "./schemas";

export const logInProcedure = publicProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/v1/auth/login",
      tags: ["auth"],
      protect: false,
      summary: "Log in",
      description:
        "Exchanges email and password for a dashboard session: `token` (`qs_` + 64 hex) is valid 12 hours, extended " +
        "while in use but never past 7 days after the login, and is also set as the `__Host-qc_session` cookie " +
        "(HttpOnly, Secure, SameSite=Strict, Path=/). Send it as `Authorization: Bearer <token>`. Like an API key, a " +
        "session works only from addresses in the tenant's IP allowlist (403 `IP_NOT_ALLOWED`); the login itself is " +
        "not checked against it. A wrong email and a wrong password get the same 401 in the same time; both count " +
        "towards the lockout of the source address (IPv6: its /64) and of the account typed, known or not (10 failures " +
        "in 10 minutes: 429 `LOCKED_OUT` for 15 minutes). An unverified address is 403 `EMAIL_NOT_VERIFIED`. When the " +
        "tenant requires a passkey (`PUT /v1/settings/security`), the right password answers `{passkeyRequired: true, " +
        "challengeId, options}` and no token or cookie: pass `options` to @simplewebauthn/browser's " +
        "`startAuthentication` and send its answer to `POST /v1/auth/login/passkey`; a member without a passkey is then " +
        "409 `PASSKEY_REQUIRED`.",
    },
    errors: ["UNAUTHENTICATED", "EMAIL_NOT_VERIFIED", "LOCKED_OUT", "PASSKEY_REQUIRED"],
    example: {
      input: { email: "alice@example.com", password: "correct horse battery staple" },
      output: {
        token: EXAMPLE.sessionToken,
        expiresAt: "2026-11-21T22:00:00.000Z",
        user: { id: EXAMPLE.userId, email: "alice@example.com", name: "Alice Martin" },
        tenant: { id: EXAMPLE.tenantId, name: "Acme Treasury Ltd", status: "PENDING_VERIFICATION" },
      },
    },
  })
  .input(z.object({ email: emailAddress, password: z.string().min(1, "required").max(1024) }))
  .output(z.union([loginSession, passkeyChallenge]))
  .mutation(async ({ ctx, input }) => {
    const userAgent = ctx.request.headers["user-agent"];
    const result = await logIn(ctx.deps, {
      email: input.email,
      password: input.password,
      ip: ctx.request.ip,
      requestId: ctx.request.requestId,
      userAgent,
    });
    ctx.responseHeaders.set("Cache-Control", "no-store");
    // A copy of the options: the output schema takes any object with a challenge, the library's interface has no index signature.
    if ("passkeyRequired" in result) return { ...result, options: { ...result.options } };
    ctx.responseHeaders.set("Set-Cookie", sessionCookie(result.token, SESSION_TTL_MS / 1000));
    return result;
  });
