import { archiveWallet } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { custodyActor } from "../vaults/schemas";
import { walletIdParam, walletRecord } from "./schemas";

export const archiveWalletProcedure = authedProcedure
  .meta({
    scope: "write",
    openapi: { method: "POST", path: "/v1/wallets/{walletId}/archive", tags: ["wallets"], summary: "Archive a wallet (idempotent); returns the wallet", protect: true },
  })
  .input(z.object({ walletId: walletIdParam }))
  .output(walletRecord)
  .mutation(({ ctx, input }) =>
    archiveWallet({ db: ctx.deps.database.db, now: ctx.deps.now }, { tenantId: ctx.auth.tenantId, walletId: input.walletId, actor: custodyActor(ctx) }),
  );
