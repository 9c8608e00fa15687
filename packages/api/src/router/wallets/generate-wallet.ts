import { generateWallet } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { assetIds, walletLabel, walletRecord } from "./schemas";
import { EXAMPLE_WALLET } from "../../openapi-examples";
import { vaultIdParam } from "../../schemas/common";

export const generateWalletProcedure = authedProcedure
  .meta({
    scope: "write",
    action: "transact",
    successStatus: 201,
    openapi: {
      method: "POST",
      path: "/v1/vault/accounts/{vaultAccountId}/wallets/generate",
      tags: ["wallets"],
      summary: "Generate a signer-managed wallet",
      description:
        "Creates a `SIGNER_MANAGED` wallet in the vault on the oldest public key your signer enrolled that no wallet " +
        "uses yet (`POST /v1/signer/keys`); the key itself never leaves your signer. With no enrolled key left: 409 " +
        "`NO_SIGNER_KEY_AVAILABLE`. `assetIds` are assets of the vault's network to track (default: its native asset). " +
        "The vault must be active (409 `VAULT_ARCHIVED`).",
      protect: true,
    },
    errors: ["NOT_FOUND", "VAULT_ARCHIVED", "NO_SIGNER_KEY_AVAILABLE", "ADDRESS_ALREADY_REGISTERED", "UNKNOWN_ASSET"],
    example: { input: { vaultAccountId: EXAMPLE_WALLET.vaultId, label: EXAMPLE_WALLET.label }, output: EXAMPLE_WALLET },
  })
  .input(z.object({ vaultAccountId: vaultIdParam, assetIds, label: walletLabel }))
  .output(walletRecord)
  .mutation(async ({ ctx, input }) => {
    const wallet = await generateWallet(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      vaultId: input.vaultAccountId,
      assetIds: input.assetIds,
      label: input.label,
      actor: ctx.actor,
    });
    return wallet;
  });
