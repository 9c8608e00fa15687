import { resendVerification } from "@qc/core";
import { z } from "zod";
import { publicProcedure } from "../../trpc";
import { emailAddress } from "./schemas";

/**
 * Any JSON body is accepted (the interface promises 202 whatever is sent): a missing, mistyped or
 * malformed address, or a body that is not an object, becomes "no address", for which nothing is
 * done, not even counted against the limits. A 400 here would be the only answer that differs.
 */
const resendInput = z.preprocess(
  (body) => (typeof body === "object" && body !== null && !Array.isArray(body) ? body : {}),
  z.object({
    email: emailAddress.optional().catch(undefined).meta({
      description: "the address to send a new link to; anything that is not a valid address is accepted and ignored",
      example: "alice@example.com",
    }),
  }),
);

/**
 * Always 202, whether or not the address is registered or the limit is reached: the answer
 * never tells who has an account. Over the per-IP or per-address limit nothing is sent.
 */
export const resendVerificationProcedure = publicProcedure
  .meta({
    successStatus: 202,
    openapi: {
      method: "POST",
      path: "/v1/signup/resend-verification",
      tags: ["signup"],
      protect: false,
      summary: "Resend the verification email",
      description:
        "Emails a new verification link to an address whose account is not verified yet; earlier links stop working. " +
        "The answer is always 202 and says nothing about whether the address has an account. Past a per-address and " +
        "per-source limit nothing is sent, still with 202.",
    },
    example: { input: { email: "alice@example.com" }, output: { status: "ACCEPTED" } },
  })
  .input(resendInput)
  .output(z.object({ status: z.literal("ACCEPTED") }))
  .mutation(async ({ ctx, input }) => {
    if (input.email === undefined) return { status: "ACCEPTED" as const };
    if (await ctx.deps.rateLimits.allowResend(ctx.request.ip, input.email)) {
      await resendVerification(ctx.deps, { email: input.email, requestId: ctx.request.requestId, ip: ctx.request.ip });
    }
    return { status: "ACCEPTED" as const };
  });
