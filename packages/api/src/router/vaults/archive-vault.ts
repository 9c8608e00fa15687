import { archiveVault } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { vaultRecord } from "./schemas";
import { EXAMPLE, EXAMPLE_VAULT } from "../../openapi-examples";
import { vaultIdParam } from "../../schemas/common";

export const archiveVaultProcedure = authedProcedure
  .meta({
    scope: "write",
    action: "transact",
    openapi: {
      method: "POST",
      path: "/v1/vault/accounts/{vaultAccountId}/archive",
      tags: ["vaults"],
      summary: "Archive a vault",
      description:
        "Marks the vault `ARCHIVED` and returns it. Idempotent: archiving an archived vault returns it unchanged. An " +
        "archived vault takes no new wallets and no changes (409 `VAULT_ARCHIVED`); its wallets stay readable.",
      protect: true,
    },
    errors: ["NOT_FOUND"],
    example: {
      input: { vaultAccountId: EXAMPLE_VAULT.id },
      output: { ...EXAMPLE_VAULT, status: "ARCHIVED", updatedAt: EXAMPLE.updatedAt },
    },
  })
  .input(z.object({ vaultAccountId: vaultIdParam }))
  .output(vaultRecord)
  .mutation(({ ctx, input }) => archiveVault(ctx.deps, { tenantId: ctx.auth.tenantId, vaultId: input.vaultAccountId, actor: ctx.actor }));
