import { getIpAllowlist } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { allowlist } from "./schemas";

export const getIpAllowlistProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/settings/ip-allowlist",
      tags: ["settings"],
      summary: "Get the IP allowlist",
      description:
        "The IPv4 and IPv6 addresses and ranges API keys may call from; an empty list allows any address. Dashboard " +
        "sessions are not subject to it.",
      protect: true,
    },
    example: {
      output: {
        entries: [
          { cidr: "203.0.113.0/24", label: "office" },
          { cidr: "2001:db8::/32", label: "" },
        ],
      },
    },
  })
  .input(z.object({}).optional())
  .output(allowlist)
  .query(async ({ ctx }) => ({ entries: await getIpAllowlist(ctx.deps, { tenantId: ctx.auth.tenantId }) }));
