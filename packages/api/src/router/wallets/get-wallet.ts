import { getWallet } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { walletIdParam, walletRecord } from "./schemas";

export const getWalletProcedure = authedProcedure
  .meta({ scope: "read", openapi: { method: "GET", path: "/v1/wallets/{walletId}", tags: ["wallets"], summary: "Fetch one wallet", protect: true } })
  .input(z.object({ walletId: walletIdParam }))
  .output(walletRecord)
  .query(({ ctx, input }) => getWallet({ db: ctx.deps.database.db }, { tenantId: ctx.auth.tenantId, walletId: input.walletId }));
