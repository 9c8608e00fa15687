import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, signUp } from "@qc/core";
import { z } from "zod";
import { uuid } from "../../schemas/common";
import { publicProcedure } from "../../trpc";
import { emailAddress } from "./schemas";

/**
 * Every attempt counts towards the per-IP limit (30 an hour, then 10 minutes locked), valid or
 * not: the limit runs before the body is validated.
 */
const signupRateLimited = publicProcedure.use(async ({ ctx, next }) => {
  await ctx.deps.rateLimits.consumeSignup(ctx.request.ip);
  return next();
});

export const signUpProcedure = signupRateLimited
  .meta({
    openapi: {
      method: "POST",
      path: "/v1/signup",
      tags: ["signup"],
      protect: false,
      summary: "Create a tenant and its first admin; emails a verification link (30 per IP per hour)",
      successDescription: "Created (201)",
    },
  })
  .input(
    z.object({
      organizationName: z.string().trim().min(1, "required").max(200, "at most 200 characters"),
      email: emailAddress,
      name: z.string().trim().max(200, "at most 200 characters").optional(),
      password: z
        .string()
        .min(PASSWORD_MIN_LENGTH, `at least ${PASSWORD_MIN_LENGTH} characters`)
        .max(PASSWORD_MAX_LENGTH, `at most ${PASSWORD_MAX_LENGTH} characters`),
      accountType: z.enum(["BUSINESS", "INDIVIDUAL"]).default("BUSINESS"),
    }),
  )
  .output(z.object({ tenantId: uuid, userId: uuid, status: z.literal("PENDING_EMAIL_VERIFICATION"), message: z.string() }))
  .mutation(async ({ ctx, input }) => {
    const result = await signUp(
      { db: ctx.deps.database.db, jobs: ctx.deps.jobs, now: ctx.deps.now, publicUrl: ctx.deps.config.publicUrl },
      { ...input, name: input.name || undefined, requestId: ctx.request.requestId, ip: ctx.request.ip },
    );
    ctx.response.status = 201;
    return result;
  });
