import { acceptInvitation } from "@qc/core";
import { z } from "zod";
import { EXAMPLE } from "../../openapi-examples";
import { text, uuid } from "../../schemas/common";
import { signupRateLimited } from "../signup/sign-up";
import { newPassword } from "../signup/schemas";
import { EXAMPLE_INVITATION, memberRole } from "./schemas";

/** No credentials: the token is the proof. Each attempt counts like a signup from its source address. */
export const acceptInvitationProcedure = signupRateLimited
  .meta({
    successStatus: 201,
    openapi: {
      method: "POST",
      path: "/v1/members/invitations/accept",
      tags: ["members"],
      protect: false,
      summary: "Accept an invitation",
      description:
        "Creates the invited member with the token of the emailed link, the invitation's role, the given name and " +
        "password (12 to 256 characters, as at signup); the address counts as verified, so the member can log in at " +
        "once. The token works once and for 7 days: an unknown, used, revoked or expired token is 400 `INVALID_TOKEN` " +
        "and counts towards the source address's lockout. Every attempt counts like a signup (429 `RATE_LIMITED`). An " +
        "address that has an account by now is 409 `EMAIL_ALREADY_REGISTERED`.",
    },
    errors: ["INVALID_TOKEN", "EMAIL_ALREADY_REGISTERED", "RATE_LIMITED", "LOCKED_OUT"],
    example: {
      input: { token: "mT3hY0c9Qm8xV2pL5rK7sW1aB4dF6gH8jN0qR2tU4vX", name: "Bob Stone", password: "correct horse battery staple" },
      output: { userId: EXAMPLE.userId, tenantId: EXAMPLE.tenantId, email: EXAMPLE_INVITATION.email, role: EXAMPLE_INVITATION.role },
    },
  })
  .input(z.object({ token: text().min(1, "required").max(200), name: text().trim().min(1).max(200), password: newPassword }))
  .output(z.object({ userId: uuid, tenantId: uuid, email: z.string(), role: memberRole }))
  .mutation(({ ctx, input }) => acceptInvitation(ctx.deps, { ...input, requestId: ctx.request.requestId, ip: ctx.request.ip }));
