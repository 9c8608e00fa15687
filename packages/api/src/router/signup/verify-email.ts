import { verifyEmail } from "@qc/core";
import { z } from "zod";
import { uuid } from "../../schemas/common";
import { publicProcedure } from "../../trpc";

export const verifyEmailProcedure = publicProcedure
  .meta({
    openapi: { method: "POST", path: "/v1/signup/verify-email", tags: ["signup"], protect: false, summary: "Verify an email address with the emailed token (single use, 24 h)" },
  })
  .input(z.object({ token: z.string().min(1, "required").max(200) }))
  .output(z.object({ status: z.literal("EMAIL_VERIFIED"), userId: uuid, tenantId: uuid, email: z.string() }))
  .mutation(({ ctx, input }) =>
    verifyEmail({ db: ctx.deps.database.db, now: ctx.deps.now }, { token: input.token, requestId: ctx.request.requestId, ip: ctx.request.ip }),
  );
