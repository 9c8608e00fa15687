import { countSignerKeys } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";

export const signerKeyCounts = z.object({
  available: z.number().int().meta({ description: "enrolled keys no wallet uses yet" }),
  assigned: z.number().int().meta({ description: "enrolled keys in use by a wallet" }),
});

export const listSignerKeysProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/signer/keys",
      tags: ["signer"],
      summary: "Count signer keys",
      description:
        "How many enrolled keys are still available for `wallets/generate` and how many are assigned to wallets; " +
        "enroll more before `available` reaches 0.",
      protect: true,
    },
    example: { output: { available: 5, assigned: 2 } },
  })
  .input(z.object({}).optional())
  .output(signerKeyCounts)
  .query(({ ctx }) => countSignerKeys(ctx.deps, { tenantId: ctx.auth.tenantId }));
