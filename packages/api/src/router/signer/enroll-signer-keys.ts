import { enrollSignerKeys } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { signerKeyCounts } from "./list-signer-keys";
import { text } from "../../schemas/common";
import { EXAMPLE } from "../../openapi-examples";

export const MAX_SIGNER_KEYS_PER_BATCH = 50;

export const enrollSignerKeysProcedure = authedProcedure
  .meta({
    scope: "signer",
    action: "transact",
    successStatus: 201,
    openapi: {
      method: "POST",
      path: "/v1/signer/keys",
      tags: ["signer"],
      summary: "Enroll signer keys",
      description:
        "Adds public keys your signer generated to the pool `wallets/generate` draws from (1 to 50 per request), each " +
        "with the ownership proof of its address (the same proof as for registering a wallet). All or nothing: the " +
        "first invalid key fails the batch with 400 `INVALID_OWNERSHIP_PROOF` and `details.index`. A key already " +
        "enrolled, or whose address already is a wallet, is skipped. Needs the `signer` scope, which `write` and " +
        "`admin` do not include: only your signer's own API key fills the pool.",
      protect: true,
    },
    errors: ["INVALID_OWNERSHIP_PROOF"],
    example: {
      input: { keys: [{ publicKey: EXAMPLE.publicKey, proof: EXAMPLE.proof }] },
      output: { enrolled: 1, skipped: 0, available: 5, assigned: 2 },
    },
  })
  .input(
    z.object({
      keys: z
        .array(
          z.object({
            publicKey: text().max(20_000).meta({ description: "ML-DSA-87 public key, hex (2592 bytes)" }),
            proof: text()
              .max(40_000)
              .meta({ description: "ownership proof of the key's address, as for registering a wallet, hex (4627 bytes)" }),
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
    const result = await enrollSignerKeys(ctx.deps, { tenantId: ctx.auth.tenantId, keys: input.keys, actor: ctx.actor });
    return result;
  });
