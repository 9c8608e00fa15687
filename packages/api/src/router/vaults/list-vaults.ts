import { listVaults } from "@qc/core";
import { z } from "zod";
import { networkCode, pageInfo, pageQuery } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { vaultRecord, vaultStatus } from "./schemas";
import { EXAMPLE_LAST_PAGE, EXAMPLE_VAULT } from "../../openapi-examples";

export const listVaultsProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/vault/accounts",
      tags: ["vaults"],
      summary: "List vaults",
      description: "The tenant's vaults, newest first, optionally of one network or status. Paginate with `cursor`.",
      protect: true,
    },
    example: {
      input: { limit: 50, networkCode: "QUANTUM_SANDBOX", status: "ACTIVE" },
      output: { vaults: [EXAMPLE_VAULT], page: EXAMPLE_LAST_PAGE },
    },
  })
  .input(pageQuery.extend({ networkCode: networkCode.optional(), status: vaultStatus.optional() }))
  .output(z.object({ vaults: z.array(vaultRecord), page: pageInfo }))
  .query(({ ctx, input }) => listVaults(ctx.deps, { tenantId: ctx.auth.tenantId, ...input }));
