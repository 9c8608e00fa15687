import { readWalletBalance } from "@qc/core";
import { z } from "zod";
import { networkCode, timestamp } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { walletIdParam } from "./schemas";
import { EXAMPLE } from "../../openapi-examples";

export const getWalletBalanceProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/wallets/{walletId}/balance",
      tags: ["wallets"],
      summary: "Get a wallet's live balance",
      description:
        "Reads the balance on chain now, at one block (`blockNumber`), in base units (Qwei for the native asset). " +
        "Defaults: the asset's network, else the wallet's home network; the native asset of that network. The wallet " +
        "must be placed on the network and the asset belong to it (400 `NETWORK_MISMATCH`); an unknown asset is 400 " +
        "`UNKNOWN_ASSET`. When the network cannot be reached: 503 `UNAVAILABLE`.",
      protect: true,
    },
    errors: ["NOT_FOUND", "UNKNOWN_ASSET", "NETWORK_MISMATCH"],
    example: {
      input: { walletId: EXAMPLE.walletId, assetId: EXAMPLE.sandboxNativeAssetId, networkCode: "QUANTUM_SANDBOX" },
      output: {
        walletId: EXAMPLE.walletId,
        assetId: EXAMPLE.sandboxNativeAssetId,
        balance: "1500000000000000000",
        blockNumber: 1024,
        queriedAt: EXAMPLE.createdAt,
      },
    },
  })
  .input(z.object({ walletId: walletIdParam, assetId: z.uuid().optional(), networkCode: networkCode.optional() }))
  .output(
    z.object({
      walletId: z.uuid(),
      assetId: z.uuid(),
      balance: z
        .string()
        .meta({ description: "raw units (Qwei or token base units), decimal integer string", example: "1000000000000000000" }),
      blockNumber: z.number().int().meta({ description: "the block the balance was read at" }),
      queriedAt: timestamp,
    }),
  )
  .query(({ ctx, input }) =>
    readWalletBalance(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      walletId: input.walletId,
      assetId: input.assetId,
      networkCode: input.networkCode,
    }),
  );
