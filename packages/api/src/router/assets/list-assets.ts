import { listAssets } from "@qc/core";
import { z } from "zod";
import { pageInfo, pageQuery } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { networkCode } from "../vaults/schemas";
import { assetRecord } from "./schemas";

export const listAssetsProcedure = authedProcedure
  .meta({
    scope: "read",
    openapi: { method: "GET", path: "/v1/assets", tags: ["assets"], summary: "Native assets and the tenant's tokens, optionally of one network", protect: true },
  })
  .input(pageQuery.extend({ networkCode: networkCode.optional() }))
  .output(z.object({ assets: z.array(assetRecord), page: pageInfo }))
  .query(({ ctx, input }) => listAssets({ db: ctx.deps.database.db }, { tenantId: ctx.auth.tenantId, ...input }));
