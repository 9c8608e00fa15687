import { resendVerification } from "@qc/core";
import { z } from "zod";
import { publicProcedure } from "../../trpc";
import { emailAddress } from "./schemas";

/**
 * Always 202, whether or not the address is registered or the limit is reached: the answer
 * never tells who has an account. Over the per-IP or per-address limit nothing is sent.
 */
export const resendVerificationProcedure = publicProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/v1/signup/resend-verification",
      tags: ["signup"],
      protect: false,
      summary: "Email a new verification link (always 202; earlier links stop working)",
      successDescription: "Accepted (202)",
    },
  })
  .input(z.object({ email: emailAddress }))
  .output(z.object({ status: z.literal("ACCEPTED") }))
  .mutation(async ({ ctx, input }) => {
    if (await ctx.deps.rateLimits.allowResend(ctx.request.ip, input.email)) {
      await resendVerification(
        { db: ctx.deps.database.db, jobs: ctx.deps.jobs, now: ctx.deps.now, publicUrl: ctx.deps.config.publicUrl },
        { email: input.email, requestId: ctx.request.requestId, ip: ctx.request.ip },
      );
    }
    ctx.response.status = 202;
    return { status: "ACCEPTED" as const };
  });
