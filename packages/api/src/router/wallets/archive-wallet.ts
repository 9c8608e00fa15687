import { archiveWallet } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { walletIdParam, walletRecord } from "./schemas";
import { EXAMPLE_WALLET } from "../../openapi-examples";

export const archiveWalletProcedure = authedProcedure
  .meta({
    scope: "write",
    action: "transact",
    openapi: {
      method: "POST",
      path: "/v1/wallets/{walletId}/archive",
      tags: ["wallets"],
      summary: "Archive a wallet",
      description:
        "Marks the wallet `ARCHIVED` and returns it. Idempotent. An archived wallet stays readable but cannot send or " +
        "be placed in another vault (409 `WALLET_ARCHIVED`).",
      protect: true,
    },
    errors: ["NOT_FOUND"],
    example: { input: { walletId: EXAMPLE_WALLET.id }, output: { ...EXAMPLE_WALLET, status: "ARCHIVED" } },
  })
  .input(z.object({ walletId: walletIdParam }))
  .output(walletRecord)
  .mutation(({ ctx, input }) => archiveWallet(ctx.deps, { tenantId: ctx.auth.tenantId, walletId: input.walletId, actor: ctx.actor }));
