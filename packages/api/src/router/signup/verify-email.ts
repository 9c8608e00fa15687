import { verifyEmail } from "@qc/core";
import { z } from "zod";
import { text, uuid } from "../../schemas/common";
import { publicProcedure } from "../../trpc";
import { EXAMPLE } from "../../openapi-examples";

export const verifyEmailProcedure = publicProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/v1/signup/verify-email",
      tags: ["signup"],
      protect: false,
      summary: "Verify an email address",
      description:
        "Consumes the token of the emailed link (single use, valid 24 hours) and marks the address verified, after " +
        "which the user can log in. An unknown, used or expired token is 400 `INVALID_TOKEN`: ask for a new link with " +
        "`POST /v1/signup/resend-verification`.",
    },
    errors: ["INVALID_TOKEN"],
    example: {
      input: { token: "mT3hY0c9Qm8xV2pL5rK7sW1aB4dF6gH8jN0qR2tU4vX" },
      output: { status: "EMAIL_VERIFIED", userId: EXAMPLE.userId, tenantId: EXAMPLE.tenantId, email: "alice@example.com" },
    },
  })
  .input(z.object({ token: text().min(1, "required").max(200) }))
  .output(z.object({ status: z.literal("EMAIL_VERIFIED"), userId: uuid, tenantId: uuid, email: z.string() }))
  .mutation(({ ctx, input }) => verifyEmail(ctx.deps, { token: input.token, requestId: ctx.request.requestId, ip: ctx.request.ip }));
