import { getScreeningDenylist } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { denylist } from "./schemas";

export const getScreeningDenylistProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/settings/screening-denylist",
      tags: ["policies"],
      summary: "Get the screening denylist",
      description:
        "The tenant's own destination denylist. The built-in `denylist` screening provider blocks a transfer to any of " +
        "these addresses (BLOCKED / REJECTED_AML_SCREENING), beside the service-wide SCREENING_DENYLIST.",
      protect: true,
    },
    example: { output: { entries: [{ address: "0x7a3b5c9d1e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b", label: "sanctioned exchange" }] } },
  })
  .input(z.object({}).optional())
  .output(denylist)
  .query(async ({ ctx }) => ({ entries: await getScreeningDenylist(ctx.deps, { tenantId: ctx.auth.tenantId }) }));
