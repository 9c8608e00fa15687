import { AppError, logOut } from "@qc/core";
import { z } from "zod";
import { expiredSessionCookie } from "../../http-headers";
import { authedProcedure } from "../../trpc";

/**
 * Ends the caller's dashboard session and clears its cookie. Any authenticated caller reaches
 * it (scope `read`); an API key has no session to end: 409 (revoke keys in the dashboard).
 */
export const logOutProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "POST",
      path: "/v1/auth/logout",
      tags: ["auth"],
      summary: "Log out",
      description:
        "Ends the calling dashboard session at once and clears its cookie. Called with an API key it is 409 " +
        "`CONFLICT`: a key has no session (revoke keys in the dashboard).",
      protect: true,
    },
    errors: ["CONFLICT"],
    example: { output: { status: "LOGGED_OUT" } },
  })
  .input(z.object({}).optional())
  .output(z.object({ status: z.literal("LOGGED_OUT") }))
  .mutation(async ({ ctx }) => {
    if (ctx.auth.kind !== "session")
      throw new AppError("CONFLICT", "an API key has no session to end; revoke keys in the dashboard instead");
    const result = await logOut(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      userId: ctx.auth.userId!,
      sessionId: ctx.auth.sessionId!,
      actor: ctx.actor,
    });
    ctx.responseHeaders.set("Set-Cookie", expiredSessionCookie());
    return result;
  });
