import { z } from "zod";
import { publicProcedure } from "../../trpc";
import { emailAddress } from "../signup/schemas";

/**
 * Like resend-verification, any JSON body is accepted: a missing, mistyped or malformed address,
 * or a body that is not an object, is "no address", for which nothing is done. A 400 would be the
 * one answer that differs from a registered address's.
 */
const passwordResetInput = z.preprocess(
  (body) => (typeof body === "object" && body !== null && !Array.isArray(body) ? body : {}),
  z.object({
    email: emailAddress.optional().catch(undefined).meta({
      description: "the account's address; anything that is not a valid address is accepted and ignored",
      example: "alice@example.com",
    }),
  }),
);

/**
 * Always 202 once the source address is within its limit. The account lookup and the email run
 * in the daemon (job `identity.password-reset-request`), not in the request: answering only when
 * they are done would make the answer for a registered address measurably slower and give away
 * who has an account. The request does the same work for every well-formed address (the
 * per-address limit and one job insert), and the job is durable: a crash loses no request.
 */
export const requestPasswordResetProcedure = publicProcedure
  .use(async ({ ctx, next }) => {
    await ctx.deps.rateLimits.consumePasswordReset(ctx.request.ip);
    return next();
  })
  .meta({
    successStatus: 202,
    openapi: {
      method: "POST",
      path: "/v1/auth/password-reset",
      tags: ["auth"],
      protect: false,
      summary: "Ask for a password reset link",
      description:
        "Emails a single-use link `<PUBLIC_URL>/reset-password?token=<token>`, valid 1 hour, to the account with this " +
        "address; earlier reset links stop working. The answer is always 202, in the same time, for any JSON body: " +
        "whether or not the address has an account or is well formed; nothing is sent for an unknown, missing or " +
        "malformed address, nor past 5 requests per address an hour. Every request counts towards the limit of its " +
        "source address, as for signup (30 an hour, then 10 minutes: 429 `RATE_LIMITED`). Confirm with `POST " +
        "/v1/auth/password-reset/confirm`.",
    },
    errors: ["RATE_LIMITED"],
    example: { input: { email: "alice@example.com" }, output: { status: "ACCEPTED" } },
  })
  .input(passwordResetInput)
  .output(z.object({ status: z.literal("ACCEPTED") }))
  .mutation(async ({ ctx, input }) => {
    const email = input.email;
    if (email !== undefined && (await ctx.deps.rateLimits.allowPasswordResetEmail(email))) {
      await ctx.deps.jobs.send(ctx.deps.db, "identity.password-reset-request", {
        email,
        requestId: ctx.request.requestId,
        ip: ctx.request.ip,
      });
    }
    return { status: "ACCEPTED" as const };
  });
