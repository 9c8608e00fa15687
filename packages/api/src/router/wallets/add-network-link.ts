import { addNetworkLink } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { custodyActor, networkCode } from "../vaults/schemas";
import { walletIdParam, walletRecord } from "./schemas";

export const addNetworkLinkProcedure = authedProcedure
  .meta({
    scope: "write",
    openapi: {
      method: "POST",
      path: "/v1/wallets/{walletId}/network-links",
      tags: ["wallets"],
      summary: "Place the wallet in a vault of a network (201; 200 when already placed there; one vault per network)",
      protect: true,
    },
  })
  .input(z.object({ walletId: walletIdParam, networkCode, vaultId: z.uuid() }))
  .output(walletRecord)
  .mutation(async ({ ctx, input }) => {
    const { wallet, created } = await addNetworkLink(
      { db: ctx.deps.database.db },
      { tenantId: ctx.auth.tenantId, walletId: input.walletId, networkCode: input.networkCode, vaultId: input.vaultId, actor: custodyActor(ctx) },
    );
    if (created) ctx.response.status = 201;
    return wallet;
  });
