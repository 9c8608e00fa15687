import { resetPassword } from "@qc/core";
import { z } from "zod";
import { expiredSessionCookie } from "../../http-headers";
import { text } from "../../schemas/common";
import { publicProcedure } from "../../trpc";
import { newPassword } from "../signup/schemas";

export const confirmPasswordResetProcedure = publicProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/v1/auth/password-reset/confirm",
      tags: ["auth"],
      protect: false,
      summary: "Set a new password with a reset link's token",
      description:
        "Sets the new password (12 to 256 characters, as at signup) with the token of the emailed link. The token " +
        "works once and for 1 hour; an unknown, used or expired token is 400 `INVALID_TOKEN`. Every dashboard session " +
        "of the account ends (log in again with the new password), other reset links stop working, and the change is " +
        "audited. An account still waiting for email verification is verified by it: the link reached the address. API " +
        "keys are not affected.",
    },
    errors: ["INVALID_TOKEN"],
    example: {
      input: { token: "R2VuZXJhdGVkIGJ5IHRoZSBzZXJ2aWNlOyBzaW5nbGUgdXNl", password: "a new correct horse battery" },
      output: { status: "PASSWORD_RESET", sessionsEnded: 2 },
    },
  })
  .input(z.object({ token: text().min(1, "required").max(200), password: newPassword }))
  .output(
    z.object({
      status: z.literal("PASSWORD_RESET"),
      sessionsEnded: z.number().int().meta({ description: "dashboard sessions of the account that the reset ended" }),
    }),
  )
  .mutation(async ({ ctx, input }) => {
    const result = await resetPassword(ctx.deps, { ...input, requestId: ctx.request.requestId, ip: ctx.request.ip });
    // This browser's session, if any, ended with the others.
    ctx.responseHeaders.set("Set-Cookie", expiredSessionCookie());
    ctx.responseHeaders.set("Cache-Control", "no-store");
    return result;
  });
