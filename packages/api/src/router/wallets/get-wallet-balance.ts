import { readWalletBalance } from "@qc/core";
import { z } from "zod";
import { timestamp } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { networkCode } from "../vaults/schemas";
import { walletIdParam } from "./schemas";

export const getWalletBalanceProcedure = authedProcedure
  .meta({
    scope: "read",
    openapi: {
      method: "GET",
      path: "/v1/wallets/{walletId}/balance",
      tags: ["wallets"],
      summary: "Live on-chain balance at one block (default: native asset on the home network); 503 UNAVAILABLE when the chain cannot be reached",
      protect: true,
    },
  })
  .input(z.object({ walletId: walletIdParam, assetId: z.uuid().optional(), networkCode: networkCode.optional() }))
  .output(
    z.object({
      walletId: z.uuid(),
      assetId: z.uuid(),
      balance: z.string().meta({ description: "raw units (Qwei or token base units), decimal integer string", example: "1000000000000000000" }),
      blockNumber: z.number().int().meta({ description: "the block the balance was read at" }),
      queriedAt: timestamp,
    }),
  )
  .query(({ ctx, input }) =>
    readWalletBalance(
      { db: ctx.deps.database.db, chain: ctx.deps.chain, now: ctx.deps.now },
      { tenantId: ctx.auth.tenantId, walletId: input.walletId, assetId: input.assetId, networkCode: input.networkCode },
    ),
  );
