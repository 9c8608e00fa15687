import { listVaultWallets } from "@qc/core";
import { z } from "zod";
import { pageInfo, pageQuery } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { vaultIdParam } from "../vaults/schemas";
import { walletRecord } from "./schemas";

export const listVaultWalletsProcedure = authedProcedure
  .meta({
    scope: "read",
    openapi: {
      method: "GET",
      path: "/v1/vault/accounts/{vaultAccountId}/wallets",
      tags: ["wallets"],
      summary: "Wallets placed in a vault, newest first",
      protect: true,
    },
  })
  .input(pageQuery.extend({ vaultAccountId: vaultIdParam }))
  .output(z.object({ wallets: z.array(walletRecord), page: pageInfo }))
  .query(({ ctx, input }) =>
    listVaultWallets({ db: ctx.deps.database.db }, { tenantId: ctx.auth.tenantId, vaultId: input.vaultAccountId, limit: input.limit, cursor: input.cursor }),
  );
