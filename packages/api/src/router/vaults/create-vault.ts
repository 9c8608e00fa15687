import { createVault } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { vaultMetadata, vaultRecord } from "./schemas";
import { networkCode, text } from "../../schemas/common";
import { EXAMPLE_VAULT } from "../../openapi-examples";

export const createVaultProcedure = authedProcedure
  .meta({
    scope: "write",
    action: "transact",
    successStatus: 201,
    openapi: {
      method: "POST",
      path: "/v1/vault/accounts",
      tags: ["vaults"],
      summary: "Create a vault",
      description:
        "Creates an `ACTIVE` vault on one network. `metadata`: at most 50 string keys of at most 40 characters, each " +
        "with a string value of at most 500 characters.",
      protect: true,
    },
    example: {
      input: { name: EXAMPLE_VAULT.name, networkCode: EXAMPLE_VAULT.networkCode, metadata: EXAMPLE_VAULT.metadata },
      output: EXAMPLE_VAULT,
    },
  })
  .input(z.object({ name: text().trim().min(1).max(200), networkCode, metadata: vaultMetadata.optional() }))
  .output(vaultRecord)
  .mutation(async ({ ctx, input }) => {
    const vault = await createVault(ctx.deps, { tenantId: ctx.auth.tenantId, ...input, actor: ctx.actor });
    return vault;
  });
