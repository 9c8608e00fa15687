import { listApiKeys } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { apiKeyRecord } from "./schemas";
import { EXAMPLE_API_KEY } from "../../openapi-examples";

export const listCredentials = authedProcedure
  .meta({
    scope: "admin",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/credentials",
      tags: ["credentials"],
      summary: "List API keys",
      description:
        "The tenant's API keys with status, scopes, expiry and last use; never a secret (a secret is shown once, when " +
        "the key is created or rotated). A key that was sent over plain HTTP is listed with `exposed: true`: rotate " +
        "it. `lastUsedAt` is recorded in batches and can lag by a minute.",
      protect: true,
    },
    example: { output: { data: [EXAMPLE_API_KEY] } },
  })
  .input(z.object({}).optional())
  .output(z.object({ data: z.array(apiKeyRecord) }))
  .query(async ({ ctx }) => ({ data: await listApiKeys(ctx.deps, ctx.auth.tenantId) }));
