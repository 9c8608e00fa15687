import { getWallet } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { walletIdParam, walletRecord } from "./schemas";
import { EXAMPLE_WALLET } from "../../openapi-examples";

export const getWalletProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/wallets/{walletId}",
      tags: ["wallets"],
      summary: "Get a wallet",
      description: "One wallet of the tenant with all its network placements; another tenant's wallet is 404.",
      protect: true,
    },
    errors: ["NOT_FOUND"],
    example: { input: { walletId: EXAMPLE_WALLET.id }, output: EXAMPLE_WALLET },
  })
  .input(z.object({ walletId: walletIdParam }))
  .output(walletRecord)
  .query(({ ctx, input }) => getWallet(ctx.deps, { tenantId: ctx.auth.tenantId, walletId: input.walletId }));
