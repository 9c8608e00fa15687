import { listDevMailbox } from "@qc/core";
import { z } from "zod";
import { timestamp, uuid } from "../../schemas/common";
import { publicProcedure } from "../../trpc";
import { EXAMPLE } from "../../openapi-examples";
import { emailAddress } from "../signup/schemas";

/**
 * Development only (404 in production): the emails delivered to the dev outbox (no SMTP_URL),
 * links included, so a newcomer without an SMTP server can verify an address. Public on purpose:
 * it is read before the first login is possible; so it lists one recipient's mail at a time,
 * never everyone's, and never mail that went out over SMTP. See docs/decisions/identity.md.
 */
export const listDevMailboxProcedure = publicProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/dev/mailbox",
      tags: ["development"],
      protect: false,
      summary: "Development mailbox",
      description:
        "Development only (404 in production): the emails delivered to the dev outbox for one address (`to`, " +
        "required), newest first, links included, so that an address can be verified without a mail server. Only mail " +
        "delivered while no SMTP server is configured (`SMTP_URL` unset) is kept here; mail sent over SMTP and mail " +
        "still waiting for delivery are never listed.",
    },
    errors: ["NOT_FOUND"],
    example: {
      input: { to: "alice@example.com", limit: 10 },
      output: {
        emails: [
          {
            id: EXAMPLE.emailId,
            to: "alice@example.com",
            subject: "Verify your email address",
            text: "Open https://localhost:8443/verify-email?token=mT3hY0c9Qm8xV2pL5rK7sW1aB4dF6gH8jN0qR2tU4vX to verify your address.",
            kind: "verify_email",
            transport: "outbox",
            sentAt: EXAMPLE.createdAt,
            createdAt: EXAMPLE.createdAt,
          },
        ],
      },
    },
  })
  .input(
    z.object({
      to: emailAddress.meta({
        description: "the recipient whose emails to list (required: the mailbox never lists every recipient's mail)",
        example: "alice@example.com",
      }),
      limit: z.number().int().min(1).max(50).default(50),
    }),
  )
  .output(
    z.object({
      emails: z.array(
        z.object({
          id: uuid,
          to: z.string(),
          subject: z.string(),
          text: z.string(),
          kind: z.string(),
          transport: z.literal("outbox"),
          sentAt: timestamp,
          createdAt: timestamp,
        }),
      ),
    }),
  )
  .query(async ({ ctx, input }) => {
    ctx.responseHeaders.set("Cache-Control", "no-store");
    const emails = await listDevMailbox(ctx.deps, { to: input.to, limit: input.limit });
    return { emails };
  });
