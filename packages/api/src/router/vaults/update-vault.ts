import { updateVault } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { vaultMetadata, vaultRecord } from "./schemas";
import { text, vaultIdParam } from "../../schemas/common";
import { EXAMPLE, EXAMPLE_VAULT } from "../../openapi-examples";

export const updateVaultProcedure = authedProcedure
  .meta({
    scope: "write",
    action: "transact",
    openapi: {
      method: "PUT",
      path: "/v1/vault/accounts/{vaultAccountId}",
      tags: ["vaults"],
      summary: "Rename a vault or replace its metadata",
      description:
        "Sets `name` and/or replaces `metadata` as a whole (same limits as on creation); a field left out is " +
        "unchanged. An archived vault cannot change (409 `VAULT_ARCHIVED`).",
      protect: true,
    },
    errors: ["NOT_FOUND", "VAULT_ARCHIVED"],
    example: {
      input: { vaultAccountId: EXAMPLE_VAULT.id, name: "Treasury (EU)", metadata: { desk: "treasury", region: "eu" } },
      output: { ...EXAMPLE_VAULT, name: "Treasury (EU)", metadata: { desk: "treasury", region: "eu" }, updatedAt: EXAMPLE.updatedAt },
    },
  })
  .input(z.object({ vaultAccountId: vaultIdParam, name: text().trim().min(1).max(200).optional(), metadata: vaultMetadata.optional() }))
  .output(vaultRecord)
  .mutation(({ ctx, input }) =>
    updateVault(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      vaultId: input.vaultAccountId,
      name: input.name,
      metadata: input.metadata,
      actor: ctx.actor,
    }),
  );
