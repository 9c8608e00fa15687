import { isAddressInput } from "@qc/chain";
import { addTokenAsset } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { custodyActor, networkCode } from "../vaults/schemas";
import { assetRecord } from "./schemas";

export const addAssetProcedure = authedProcedure
  .meta({
    scope: "admin",
    openapi: {
      method: "POST",
      path: "/v1/assets",
      tags: ["assets"],
      summary: "Add an ERC-20 token: symbol, name and decimals are read from the contract (201; 200 when already added; 400 UNKNOWN_ASSET without a token contract)",
      protect: true,
      successDescription: "Created (HTTP 201)",
    },
  })
  .input(
    z.object({
      networkCode,
      contractAddress: z.string().refine(isAddressInput, "40 hex digits with optional 0x; mixed case must pass EIP-55"),
    }),
  )
  .output(assetRecord)
  .mutation(async ({ ctx, input }) => {
    const { asset, created } = await addTokenAsset(
      { db: ctx.deps.database.db, chain: ctx.deps.chain },
      { tenantId: ctx.auth.tenantId, networkCode: input.networkCode, contractAddress: input.contractAddress, actor: custodyActor(ctx) },
    );
    if (created) ctx.response.status = 201;
    return asset;
  });
