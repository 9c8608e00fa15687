import { generateWallet } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { custodyActor, vaultIdParam } from "../vaults/schemas";
import { assetIds, walletLabel, walletRecord } from "./schemas";

export const generateWalletProcedure = authedProcedure
  .meta({
    scope: "write",
    openapi: {
      method: "POST",
      path: "/v1/vault/accounts/{vaultAccountId}/wallets/generate",
      tags: ["wallets"],
      summary: "New SIGNER_MANAGED wallet on the oldest enrolled signer key (201; 409 NO_SIGNER_KEY_AVAILABLE)",
      protect: true,
      successDescription: "Created (HTTP 201)",
    },
  })
  .input(z.object({ vaultAccountId: vaultIdParam, assetIds, label: walletLabel }))
  .output(walletRecord)
  .mutation(async ({ ctx, input }) => {
    const wallet = await generateWallet(
      { db: ctx.deps.database.db },
      { tenantId: ctx.auth.tenantId, vaultId: input.vaultAccountId, assetIds: input.assetIds, label: input.label, actor: custodyActor(ctx) },
    );
    ctx.response.status = 201;
    return wallet;
  });
