import { listVaults } from "@qc/core";
import { z } from "zod";
import { pageInfo, pageQuery } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { networkCode, vaultRecord, vaultStatus } from "./schemas";

export const listVaultsProcedure = authedProcedure
  .meta({
    scope: "read",
    openapi: { method: "GET", path: "/v1/vault/accounts", tags: ["vaults"], summary: "List the tenant's vaults, newest first", protect: true },
  })
  .input(pageQuery.extend({ networkCode: networkCode.optional(), status: vaultStatus.optional() }))
  .output(z.object({ vaults: z.array(vaultRecord), page: pageInfo }))
  .query(({ ctx, input }) => listVaults({ db: ctx.deps.database.db }, { tenantId: ctx.auth.tenantId, ...input }));
