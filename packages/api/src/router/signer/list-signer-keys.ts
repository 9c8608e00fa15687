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
    openapi: { method: "GET", path: "/v1/signer/keys", tags: ["signer"], summary: "How many enrolled signer keys are available and assigned", protect: true },
  })
  .input(z.object({}).optional())
  .output(signerKeyCounts)
  .query(({ ctx }) => countSignerKeys({ db: ctx.deps.database.db }, { tenantId: ctx.auth.tenantId }));
