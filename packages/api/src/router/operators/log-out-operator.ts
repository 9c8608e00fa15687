import { logOutOperator } from "@qc/core";
import { expiredOperatorSessionCookie } from "../../http-headers";
import { z } from "zod";
import { operatorProcedure } from "../../trpc";

export const logOutOperatorProcedure = operatorProcedure
  .input(z.object({}).optional())
  .output(z.object({ status: z.literal("LOGGED_OUT") }))
  .mutation(async ({ ctx }) => {
    const result = await logOutOperator(
      { db: ctx.deps.database.db, now: ctx.deps.now },
      { operator: ctx.operator, requestId: ctx.request.requestId, ip: ctx.request.ip },
    );
    ctx.responseHeaders.set("Set-Cookie", expiredOperatorSessionCookie());
    return result;
  });
