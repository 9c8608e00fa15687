import { listAssets } from "@qc/core";
import { z } from "zod";
import { networkCode, pageInfo, pageQuery } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { assetRecord } from "./schemas";
import { EXAMPLE_LAST_PAGE, EXAMPLE_NATIVE_ASSET, EXAMPLE_TOKEN_ASSET } from "../../openapi-examples";

export const listAssetsProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/assets",
      tags: ["assets"],
      summary: "List assets",
      description:
        "The native asset of each network (symbol `Q`, 18 decimals; its id is the UUIDv5 of `<networkCode>:native` in " +
        "the URL namespace) and the tokens the tenant added, optionally of one network.",
      protect: true,
    },
    example: {
      input: { networkCode: "QUANTUM_SANDBOX" },
      output: { assets: [EXAMPLE_NATIVE_ASSET, EXAMPLE_TOKEN_ASSET], page: EXAMPLE_LAST_PAGE },
    },
  })
  .input(pageQuery.extend({ networkCode: networkCode.optional() }))
  .output(z.object({ assets: z.array(assetRecord), page: pageInfo }))
  .query(({ ctx, input }) => listAssets(ctx.deps, { tenantId: ctx.auth.tenantId, ...input }));
