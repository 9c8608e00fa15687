import { listApiKeys } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { apiKeyRecord } from "./schemas";

export const listCredentials = authedProcedure
  .meta({
    scope: "admin",
    openapi: { method: "GET", path: "/v1/credentials", tags: ["credentials"], summary: "List the tenant's API keys (never their secrets)", protect: true },
  })
  .input(z.object({}).optional())
  .output(z.object({ data: z.array(apiKeyRecord) }))
  .query(async ({ ctx }) => ({ data: await listApiKeys({ db: ctx.deps.database.db, now: ctx.deps.now }, ctx.auth.tenantId) }) as never);
