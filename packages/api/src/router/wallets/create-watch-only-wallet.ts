import { createWatchOnlyWallet } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { custodyActor, vaultIdParam } from "../vaults/schemas";
import { assetIds, walletLabel, walletRecord } from "./schemas";

export const createWatchOnlyWalletProcedure = authedProcedure
  .meta({
    scope: "write",
    openapi: {
      method: "POST",
      path: "/v1/vault/accounts/{vaultAccountId}/wallets/watch-only",
      tags: ["wallets"],
      summary: "Monitor an address (201 WATCH_ONLY, publicKey null; never a transaction source)",
      protect: true,
      successDescription: "Created (HTTP 201)",
    },
  })
  .input(z.object({ vaultAccountId: vaultIdParam, address: z.string().max(200), assetIds, label: walletLabel }))
  .output(walletRecord)
  .mutation(async ({ ctx, input }) => {
    const { vaultAccountId, ...rest } = input;
    const wallet = await createWatchOnlyWallet({ db: ctx.deps.database.db }, { tenantId: ctx.auth.tenantId, vaultId: vaultAccountId, ...rest, actor: custodyActor(ctx) });
    ctx.response.status = 201;
    return wallet;
  });
