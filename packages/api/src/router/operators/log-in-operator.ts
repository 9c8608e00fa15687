import { logInOperator } from "@qc/core";
import { operatorSessionCookie } from "../../http-headers";
import { z } from "zod";
import { timestamp } from "../../schemas/common";
import { publicProcedure } from "../../trpc";
import { emailAddress } from "../signup/schemas";
import { operatorRecord } from "./schemas";

/** The console's login (tRPC only): sets the operator cookie; the token itself is never in the body. */
export const logInOperatorProcedure = publicProcedure
  .input(z.object({ email: emailAddress, password: z.string().min(1, "required").max(1024) }))
  .output(z.object({ expiresAt: timestamp, operator: operatorRecord }))
  .mutation(async ({ ctx, input }) => {
    const userAgent = ctx.request.headers["user-agent"];
    const result = await logInOperator(
      { db: ctx.deps.database.db, now: ctx.deps.now, authenticator: ctx.deps.authenticator },
      { email: input.email, password: input.password, ip: ctx.request.ip, requestId: ctx.request.requestId, userAgent },
    );
    ctx.responseHeaders.set("Set-Cookie", operatorSessionCookie(result.token));
    ctx.responseHeaders.set("Cache-Control", "no-store");
    return { expiresAt: result.expiresAt, operator: result.operator };
  });
