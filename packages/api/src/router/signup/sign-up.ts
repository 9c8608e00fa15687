import { signUp } from "@qc/core";
import { ACCOUNT_TYPES } from "@qc/domain";
import { z } from "zod";
import { text, uuid } from "../../schemas/common";
import { publicProcedure } from "../../trpc";
import { emailAddress, newPassword } from "./schemas";
import { EXAMPLE } from "../../openapi-examples";

/**
 * Every attempt counts towards the per-IP limit (30 an hour, then 10 minutes locked), valid or
 * not: the limit runs before the body is validated.
 */
export const signupRateLimited = publicProcedure.use(async ({ ctx, next }) => {
  await ctx.deps.rateLimits.consumeSignup(ctx.request.ip);
  return next();
});

export const signUpProcedure = signupRateLimited
  .meta({
    successStatus: 201,
    openapi: {
      method: "POST",
      path: "/v1/signup",
      tags: ["signup"],
      protect: false,
      summary: "Sign up",
      description:
        "Creates a tenant (status `PENDING_VERIFICATION`) and its first user, an admin, and emails a verification link " +
        "`<PUBLIC_URL>/verify-email?token=…` (single use, valid 24 hours); logging in needs a verified address. " +
        "Passwords have 12 to 256 characters. Every attempt from a source address counts, valid or not: after 30 in an " +
        "hour the address waits 10 minutes (429 `RATE_LIMITED`). An email that already has an account is 409 " +
        "`EMAIL_ALREADY_REGISTERED`.",
    },
    errors: ["EMAIL_ALREADY_REGISTERED", "RATE_LIMITED"],
    example: {
      input: {
        organizationName: "Acme Treasury Ltd",
        email: "alice@example.com",
        name: "Alice Martin",
        password: "correct horse battery staple",
        accountType: "BUSINESS",
      },
      output: {
        tenantId: EXAMPLE.tenantId,
        userId: EXAMPLE.userId,
        status: "PENDING_EMAIL_VERIFICATION",
        message: "Account created. We sent a verification link to alice@example.com; it is valid for 24 hours.",
      },
    },
  })
  .input(
    z.object({
      organizationName: text().trim().min(1, "required").max(200, "at most 200 characters"),
      email: emailAddress,
      name: text().trim().max(200, "at most 200 characters").optional(),
      password: newPassword,
      accountType: z.enum(ACCOUNT_TYPES).default("BUSINESS"),
    }),
  )
  .output(z.object({ tenantId: uuid, userId: uuid, status: z.literal("PENDING_EMAIL_VERIFICATION"), message: z.string() }))
  .mutation(async ({ ctx, input }) => {
    return signUp(ctx.deps, { ...input, name: input.name || undefined, requestId: ctx.request.requestId, ip: ctx.request.ip });
  });
