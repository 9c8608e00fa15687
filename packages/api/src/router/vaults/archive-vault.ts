import { archiveVault } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { custodyActor, vaultIdParam, vaultRecord } from "./schemas";

export const archiveVaultProcedure = authedProcedure
  .meta({
    scope: "write",
    openapi: {
      method: "POST",
      path: "/v1/vault/accounts/{vaultAccountId}/archive",
      tags: ["vaults"],
      summary: "Archive a vault (idempotent); it takes no new wallets afterwards",
      protect: true,
    },
  })
  .input(z.object({ vaultAccountId: vaultIdParam }))
  .output(vaultRecord)
  .mutation(({ ctx, input }) =>
    archiveVault({ db: ctx.deps.database.db, now: ctx.deps.now }, { tenantId: ctx.auth.tenantId, vaultId: input.vaultAccountId, actor: custodyActor(ctx) }),
  );
