import { getVault } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { vaultIdParam, vaultRecord } from "./schemas";

export const getVaultProcedure = authedProcedure
  .meta({
    scope: "read",
    openapi: { method: "GET", path: "/v1/vault/accounts/{vaultAccountId}", tags: ["vaults"], summary: "Fetch one vault", protect: true },
  })
  .input(z.object({ vaultAccountId: vaultIdParam }))
  .output(vaultRecord)
  .query(({ ctx, input }) => getVault({ db: ctx.deps.database.db }, { tenantId: ctx.auth.tenantId, vaultId: input.vaultAccountId }));
