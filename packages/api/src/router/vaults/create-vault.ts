import { createVault } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { custodyActor, networkCode, vaultMetadata, vaultRecord } from "./schemas";

export const createVaultProcedure = authedProcedure
  .meta({
    scope: "write",
    openapi: { method: "POST", path: "/v1/vault/accounts", tags: ["vaults"], summary: "Create a vault on one network (201)", protect: true, successDescription: "Created (HTTP 201)" },
  })
  .input(z.object({ name: z.string().trim().min(1).max(200), networkCode, metadata: vaultMetadata.optional() }))
  .output(vaultRecord)
  .mutation(async ({ ctx, input }) => {
    const vault = await createVault({ db: ctx.deps.database.db }, { tenantId: ctx.auth.tenantId, ...input, actor: custodyActor(ctx) });
    ctx.response.status = 201;
    return vault;
  });
