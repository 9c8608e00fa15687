import { updateVault } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { custodyActor, vaultIdParam, vaultMetadata, vaultRecord } from "./schemas";

export const updateVaultProcedure = authedProcedure
  .meta({
    scope: "write",
    openapi: {
      method: "PUT",
      path: "/v1/vault/accounts/{vaultAccountId}",
      tags: ["vaults"],
      summary: "Rename a vault and/or replace its metadata (409 VAULT_ARCHIVED once archived)",
      protect: true,
    },
  })
  .input(z.object({ vaultAccountId: vaultIdParam, name: z.string().trim().min(1).max(200).optional(), metadata: vaultMetadata.optional() }))
  .output(vaultRecord)
  .mutation(({ ctx, input }) =>
    updateVault(
      { db: ctx.deps.database.db, now: ctx.deps.now },
      { tenantId: ctx.auth.tenantId, vaultId: input.vaultAccountId, name: input.name, metadata: input.metadata, actor: custodyActor(ctx) },
    ),
  );
