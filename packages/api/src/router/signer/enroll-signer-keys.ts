import { enrollSignerKeys } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { custodyActor } from "../vaults/schemas";
import { signerKeyCounts } from "./list-signer-keys";

export const MAX_SIGNER_KEYS_PER_BATCH = 50;

export const enrollSignerKeysProcedure = authedProcedure
  .meta({
    scope: "write",
    openapi: {
      method: "POST",
      path: "/v1/signer/keys",
      tags: ["signer"],
      summary: "Enroll signer public keys for wallets/generate, each with an ownership proof of its address (all or nothing; 1105 with details.index)",
      protect: true,
      successDescription: "Created (HTTP 201)",
    },
  })
  .input(
    z.object({
      keys: z
        .array(
          z.object({
            publicKey: z.string().max(20_000).meta({ description: "ML-DSA-87 public key, hex (2592 bytes)" }),
            proof: z.string().max(40_000).meta({ description: "ownership proof (CONTRACT §5) for the key's address, hex (4627 bytes)" }),
          }),
        )
        .min(1)
        .max(MAX_SIGNER_KEYS_PER_BATCH),
    }),
  )
  .output(
    z
      .object({
        enrolled: z.number().int().meta({ description: "keys added by this request" }),
        skipped: z.number().int().meta({ description: "keys already enrolled, or whose address already is a wallet" }),
      })
      .extend(signerKeyCounts.shape),
  )
  .mutation(async ({ ctx, input }) => {
    const result = await enrollSignerKeys({ db: ctx.deps.database.db }, { tenantId: ctx.auth.tenantId, keys: input.keys, actor: custodyActor(ctx) });
    ctx.response.status = 201;
    return result;
  });
