import { getSecuritySettings } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { securitySettings } from "./schemas";

export const getSecuritySettingsProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/settings/security",
      tags: ["settings"],
      summary: "Get the security settings",
      description: "`requirePasskey`: whether dashboard logins need a passkey after the password (API keys are unaffected).",
      protect: true,
    },
    example: { output: { requirePasskey: false } },
  })
  .input(z.object({}).optional())
  .output(securitySettings)
  .query(({ ctx }) => getSecuritySettings(ctx.deps, { tenantId: ctx.auth.tenantId }));
