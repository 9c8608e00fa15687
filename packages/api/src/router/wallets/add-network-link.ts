import { addNetworkLink } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { walletIdParam, walletRecord } from "./schemas";
import { EXAMPLE, EXAMPLE_WALLET } from "../../openapi-examples";
import { networkCode } from "../../schemas/common";

export const addNetworkLinkProcedure = authedProcedure
  .meta({
    scope: "write",
    action: "transact",
    successStatus: 201,
    otherSuccess: { 200: "The wallet already is placed in this vault on this network: the wallet, unchanged." },
    openapi: {
      method: "POST",
      path: "/v1/wallets/{walletId}/network-links",
      tags: ["wallets"],
      summary: "Place a wallet on another network",
      description:
        "The same key controls the same address on every QUANTUM network: this places the wallet in a vault of another " +
        "network. At most one vault per network (another vault on an already placed network is 409 `CONFLICT`). The " +
        "vault must be on `networkCode` (400 `NETWORK_MISMATCH`) and active (409 `VAULT_ARCHIVED`); an archived wallet " +
        "cannot be placed (409 `WALLET_ARCHIVED`).",
      protect: true,
    },
    errors: ["NOT_FOUND", "NETWORK_MISMATCH", "VAULT_ARCHIVED", "WALLET_ARCHIVED", "CONFLICT"],
    example: {
      input: { walletId: EXAMPLE_WALLET.id, networkCode: "QUANTUM_MAINNET", vaultId: EXAMPLE.mainnetVaultId },
      output: {
        ...EXAMPLE_WALLET,
        networkLinks: [...EXAMPLE_WALLET.networkLinks, { networkCode: "QUANTUM_MAINNET", vaultId: EXAMPLE.mainnetVaultId }],
      },
    },
  })
  .input(z.object({ walletId: walletIdParam, networkCode, vaultId: z.uuid() }))
  .output(walletRecord)
  .mutation(async ({ ctx, input }) => {
    const { wallet, created } = await addNetworkLink(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      walletId: input.walletId,
      networkCode: input.networkCode,
      vaultId: input.vaultId,
      actor: ctx.actor,
    });
    if (!created) ctx.response.status = 200;
    return wallet;
  });
