import { createApiKey, SCOPES } from "@qc/core";
import { z } from "zod";
import { scope, text } from "../../schemas/common";
import { sessionProcedure } from "../../trpc";
import { apiKeyRecord } from "./schemas";

/** Dashboard only (tRPC `credentials.create`, session): an API key cannot mint keys. */
export const createCredential = sessionProcedure
  .meta({ scope: "admin", action: "own_keys", issuesSecret: true })
  .input(
    z.object({
      label: text().trim().min(1).max(100),
      scopes: z.array(scope).max(SCOPES.length).optional(),
      expiresAt: z.iso.datetime({ offset: true }).optional(),
    }),
  )
  .output(apiKeyRecord.extend({ secret: z.string() }))
  .mutation(({ ctx, input }) =>
    createApiKey(ctx.deps, ctx.deps.config.apiKeyPepper, {
      tenantId: ctx.auth.tenantId,
      userId: ctx.userId,
      label: input.label,
      scopes: input.scopes,
      expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
      actor: ctx.actor,
    }),
  );
