import { getIpAllowlist } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { allowlist } from "./schemas";

export const getIpAllowlistProcedure = authedProcedure
  .meta({ scope: "admin", openapi: { method: "GET", path: "/v1/settings/ip-allowlist", tags: ["settings"], summary: "The addresses API keys may call from (empty: any)", protect: true } })
  .input(z.object({}).optional())
  .output(allowlist)
  .query(async ({ ctx }) => ({ entries: await getIpAllowlist(ctx.deps.database.db, ctx.auth.tenantId) }));
