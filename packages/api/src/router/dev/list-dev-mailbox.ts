import { listDevMailbox } from "@qc/core";
import { z } from "zod";
import { timestamp, uuid } from "../../schemas/common";
import { publicProcedure } from "../../trpc";

/**
 * Development only (404 in production): the emails the service produced, links included, so a
 * newcomer without an SMTP server can verify an address. Public on purpose: it is read before
 * the first login is possible. See docs/decisions/identity.md.
 */
export const listDevMailboxProcedure = publicProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/v1/dev/mailbox",
      tags: ["development"],
      protect: false,
      summary: "Development only (404 in production): the latest emails, newest first",
    },
  })
  .input(
    z
      .object({
        to: z.string().trim().toLowerCase().max(254).optional().meta({ description: "only emails to this address" }),
        limit: z.coerce.number().int().min(1).max(50).default(50),
      })
      .optional(),
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
          transport: z.string().nullable(),
          sentAt: timestamp.nullable(),
          createdAt: timestamp,
        }),
      ),
    }),
  )
  .query(async ({ ctx, input }) => {
    ctx.responseHeaders.set("Cache-Control", "no-store");
    const emails = await listDevMailbox({ db: ctx.deps.database.db, production: ctx.deps.config.production }, { to: input?.to || undefined, limit: input?.limit ?? 50 });
    return { emails };
  });
