import { getVault } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { vaultRecord } from "./schemas";
import { EXAMPLE_VAULT } from "../../openapi-examples";
import { vaultIdParam } from "../../schemas/common";

export const getVaultProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/vault/accounts/{vaultAccountId}",
      tags: ["vaults"],
      summary: "Get a vault",
      description: "One vault of the tenant; another tenant's vault is 404.",
      protect: true,
    },
    errors: ["NOT_FOUND"],
    example: { input: { vaultAccountId: EXAMPLE_VAULT.id }, output: EXAMPLE_VAULT },
  })
  .input(z.object({ vaultAccountId: vaultIdParam }))
  .output(vaultRecord)
  .query(({ ctx, input }) => getVault(ctx.deps, { tenantId: ctx.auth.tenantId, vaultId: input.vaultAccountId }));
