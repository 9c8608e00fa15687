import { replaceIpAllowlist } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { allowlist, allowlistEntry } from "./schemas";

export const replaceIpAllowlistProcedure = authedProcedure
  .meta({
    scope: "admin",
    openapi: {
      method: "PUT",
      path: "/v1/settings/ip-allowlist",
      tags: ["settings"],
      summary: "Replace the allowlist; refused (409) when it would lock out the calling key unless allowSelfLockout",
      protect: true,
    },
  })
  .input(z.object({ entries: z.array(allowlistEntry).max(200), allowSelfLockout: z.boolean().optional() }))
  .output(allowlist)
  .mutation(async ({ ctx, input }) => ({
    entries: await replaceIpAllowlist(
      { db: ctx.deps.database.db },
      { principal: ctx.auth, callerIp: ctx.request.ip, entries: input.entries, allowSelfLockout: input.allowSelfLockout, requestId: ctx.request.requestId },
    ),
  }));
