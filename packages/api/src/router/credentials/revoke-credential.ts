import { revokeApiKey } from "@qc/core";
import { z } from "zod";
import { sessionProcedure } from "../../trpc";
import { apiKeyRecord } from "./schemas";

/** Dashboard only: immediate, no grace period. */
export const revokeCredential = sessionProcedure
  .meta({ scope: "admin", action: "own_keys" })
  .input(z.object({ keyId: z.string().regex(/^qc_[0-9a-f]{32}$/) }))
  .output(apiKeyRecord)
  .mutation(({ ctx, input }) => revokeApiKey(ctx.deps, { tenantId: ctx.auth.tenantId, keyId: input.keyId, actor: ctx.actor }));
