import { replaceIpAllowlist } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { allowlist, allowlistEntry } from "./schemas";

export const replaceIpAllowlistProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "administer",
    openapi: {
      method: "PUT",
      path: "/v1/settings/ip-allowlist",
      tags: ["settings"],
      summary: "Replace the IP allowlist",
      description:
        "Replaces the whole list (at most 200 entries; an address without a prefix length becomes a /32 or /128) and " +
        "answers it normalised. An empty list allows any address. A list that would shut out the caller's own address " +
        "(API key or dashboard session: both are held to the list) is refused with 409 `CONFLICT` unless " +
        "`allowSelfLockout` is true. Takes effect on every instance within seconds; audited.",
      protect: true,
    },
    errors: ["CONFLICT"],
    example: {
      input: { entries: [{ cidr: "203.0.113.0/24", label: "office" }, { cidr: "2001:db8::/32" }] },
      output: {
        entries: [
          { cidr: "203.0.113.0/24", label: "office" },
          { cidr: "2001:db8::/32", label: "" },
        ],
      },
    },
  })
  .input(z.object({ entries: z.array(allowlistEntry).max(200), allowSelfLockout: z.boolean().optional() }))
  .output(allowlist)
  .mutation(async ({ ctx, input }) => ({
    entries: await replaceIpAllowlist(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      actor: ctx.actor,
      callerIp: ctx.request.ip,
      entries: input.entries,
      allowSelfLockout: input.allowSelfLockout,
    }),
  }));
