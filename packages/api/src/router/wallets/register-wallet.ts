import { registerWallet } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { custodyActor, vaultIdParam } from "../vaults/schemas";
import { assetIds, walletLabel, walletRecord } from "./schemas";

// Lengths are checked by the service so that every malformed proof is 1105, not 1001; these
// bounds only keep absurd input out.
export const registerWalletProcedure = authedProcedure
  .meta({
    scope: "write",
    openapi: {
      method: "POST",
      path: "/v1/vault/accounts/{vaultAccountId}/wallets",
      tags: ["wallets"],
      summary: "Register an existing address with an ownership proof (201 REGISTERED; every proof failure 400 INVALID_OWNERSHIP_PROOF)",
      protect: true,
      successDescription: "Created (HTTP 201)",
    },
  })
  .input(
    z.object({
      vaultAccountId: vaultIdParam,
      address: z.string().max(200).meta({ description: "40 hex digits, optional 0x; mixed case must pass EIP-55" }),
      publicKey: z.string().max(20_000).meta({ description: "ML-DSA-87 public key, hex (2592 bytes)" }),
      signature: z.string().max(40_000).meta({ description: "ownership proof (CONTRACT §5), hex (4627 bytes)" }),
      assetIds,
      label: walletLabel,
    }),
  )
  .output(walletRecord)
  .mutation(async ({ ctx, input }) => {
    const { vaultAccountId, ...rest } = input;
    const wallet = await registerWallet({ db: ctx.deps.database.db }, { tenantId: ctx.auth.tenantId, vaultId: vaultAccountId, ...rest, actor: custodyActor(ctx) });
    ctx.response.status = 201;
    return wallet;
  });
