import { createWatchOnlyWallet } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { assetIds, walletLabel, walletRecord } from "./schemas";
import { text, vaultIdParam } from "../../schemas/common";
import { EXAMPLE, EXAMPLE_WALLET } from "../../openapi-examples";

export const createWatchOnlyWalletProcedure = authedProcedure
  .meta({
    scope: "write",
    action: "transact",
    successStatus: 201,
    openapi: {
      method: "POST",
      path: "/v1/vault/accounts/{vaultAccountId}/wallets/watch-only",
      tags: ["wallets"],
      summary: "Watch an address",
      description:
        "Adds a `WATCH_ONLY` wallet (`publicKey: null`): its balances can be read, but it can never be a transaction " +
        "source. The address is 40 hex digits with an optional `0x`; mixed case must pass the EIP-55 checksum (400 " +
        "`VALIDATION_FAILED` otherwise).",
      protect: true,
    },
    errors: ["NOT_FOUND", "VAULT_ARCHIVED", "ADDRESS_ALREADY_REGISTERED", "UNKNOWN_ASSET"],
    example: {
      input: { vaultAccountId: EXAMPLE.vaultId, address: EXAMPLE.address, label: "exchange deposit" },
      output: { ...EXAMPLE_WALLET, type: "WATCH_ONLY", publicKey: null, label: "exchange deposit" },
    },
  })
  .input(z.object({ vaultAccountId: vaultIdParam, address: text().max(200), assetIds, label: walletLabel }))
  .output(walletRecord)
  .mutation(async ({ ctx, input }) => {
    const { vaultAccountId, ...rest } = input;
    const wallet = await createWatchOnlyWallet(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      vaultId: vaultAccountId,
      ...rest,
      actor: ctx.actor,
    });
    return wallet;
  });
