import { listVaultWallets } from "@qc/core";
import { z } from "zod";
import { pageInfo, pageQuery, vaultIdParam } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { walletRecord } from "./schemas";
import { EXAMPLE_LAST_PAGE, EXAMPLE_WALLET } from "../../openapi-examples";

export const listVaultWalletsProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/vault/accounts/{vaultAccountId}/wallets",
      tags: ["wallets"],
      summary: "List a vault's wallets",
      description: "The wallets placed in the vault (home vault or a network link), newest first. Paginate with `cursor`.",
      protect: true,
    },
    errors: ["NOT_FOUND"],
    example: {
      input: { vaultAccountId: EXAMPLE_WALLET.vaultId, limit: 50 },
      output: { wallets: [EXAMPLE_WALLET], page: EXAMPLE_LAST_PAGE },
    },
  })
  .input(pageQuery.extend({ vaultAccountId: vaultIdParam }))
  .output(z.object({ wallets: z.array(walletRecord), page: pageInfo }))
  .query(({ ctx, input }) =>
    listVaultWallets(ctx.deps, { tenantId: ctx.auth.tenantId, vaultId: input.vaultAccountId, limit: input.limit, cursor: input.cursor }),
  );
