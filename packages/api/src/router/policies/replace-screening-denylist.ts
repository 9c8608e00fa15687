import { replaceScreeningDenylist } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { denylist, denylistEntry } from "./schemas";

export const replaceScreeningDenylistProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "administer",
    openapi: {
      method: "PUT",
      path: "/v1/settings/screening-denylist",
      tags: ["policies"],
      summary: "Replace the screening denylist",
      description:
        "Replaces the whole list (at most 10,000 addresses, no duplicates) and answers it with addresses in canonical " +
        "form. An empty list removes every entry. Applies to every transfer screened after it; audited.",
      protect: true,
    },
    example: {
      input: { entries: [{ address: "0x7A3B5C9D1E2F4A6B8C0D2E4F6A8B0C2D4E6F8A0B", label: "sanctioned exchange" }] },
      output: { entries: [{ address: "0x7a3b5c9d1e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b", label: "sanctioned exchange" }] },
    },
  })
  .input(z.object({ entries: z.array(denylistEntry).max(10_000) }))
  .output(denylist)
  .mutation(async ({ ctx, input }) => ({
    entries: await replaceScreeningDenylist(ctx.deps, { tenantId: ctx.auth.tenantId, entries: input.entries, actor: ctx.actor }),
  }));
