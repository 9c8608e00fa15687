import { AppError, expiredSessionCookie, logOut } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";

/**
 * Ends the caller's dashboard session and clears its cookie. Any authenticated caller reaches
 * it (scope `read`); an API key has no session to end: 409 (revoke keys in the dashboard).
 */
export const logOutProcedure = authedProcedure
  .meta({
    scope: "read",
    openapi: { method: "POST", path: "/v1/auth/logout", tags: ["auth"], summary: "End the current dashboard session and clear its cookie", protect: true },
  })
  .input(z.object({}).optional())
  .output(z.object({ status: z.literal("LOGGED_OUT") }))
  .mutation(async ({ ctx }) => {
    if (ctx.auth.kind !== "session") throw new AppError("CONFLICT", "an API key has no session to end; revoke keys in the dashboard instead");
    const result = await logOut(
      { db: ctx.deps.database.db, now: ctx.deps.now },
      { sessionId: ctx.auth.sessionId!, userId: ctx.auth.userId!, tenantId: ctx.auth.tenantId, requestId: ctx.request.requestId, ip: ctx.request.ip },
    );
    ctx.responseHeaders.set("Set-Cookie", expiredSessionCookie());
    return result;
  });
