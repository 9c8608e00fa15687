import { isAddressInput } from "@qc/chain";
import { addTokenAsset } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { assetRecord } from "./schemas";
import { EXAMPLE_TOKEN_ASSET } from "../../openapi-examples";
import { networkCode } from "../../schemas/common";

export const addAssetProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "administer",
    successStatus: 201,
    otherSuccess: { 200: "The token was added before: the existing asset." },
    openapi: {
      method: "POST",
      path: "/v1/assets",
      tags: ["assets"],
      summary: "Add an ERC-20 token",
      description:
        "Adds a token of the tenant's on one network; `symbol`, `name` and `decimals` are read from the contract on " +
        "chain. An address without contract code, or one that does not answer as an ERC-20, is 400 `UNKNOWN_ASSET`. " +
        "When the network cannot be reached: 503 `UNAVAILABLE`.",
      protect: true,
    },
    errors: ["UNKNOWN_ASSET"],
    example: {
      input: { networkCode: EXAMPLE_TOKEN_ASSET.networkCode, contractAddress: EXAMPLE_TOKEN_ASSET.contractAddress },
      output: EXAMPLE_TOKEN_ASSET,
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
    const { asset, created } = await addTokenAsset(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      networkCode: input.networkCode,
      contractAddress: input.contractAddress,
      actor: ctx.actor,
    });
    if (!created) ctx.response.status = 200;
    return asset;
  });
