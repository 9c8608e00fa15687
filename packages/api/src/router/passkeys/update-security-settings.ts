import { updateSecuritySettings } from "@qc/core";
import { authedProcedure } from "../../trpc";
import { securitySettings } from "./schemas";

export const updateSecuritySettingsProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "manage_owners",
    openapi: {
      method: "PUT",
      path: "/v1/settings/security",
      tags: ["settings"],
      summary: "Change the security settings",
      description:
        "OWNER only. `requirePasskey: true` makes every member's dashboard login answer a passkey challenge after " +
        "the password (`POST /v1/auth/login/passkey` completes it); it needs the caller to have a passkey, else 409 " +
        "`PASSKEY_REQUIRED`. Turning it off needs none. API keys are unaffected. Audited when it changes.",
      protect: true,
    },
    errors: ["PASSKEY_REQUIRED"],
    example: { input: { requirePasskey: true }, output: { requirePasskey: true } },
  })
  .input(securitySettings)
  .output(securitySettings)
  .mutation(({ ctx, input }) =>
    updateSecuritySettings(ctx.deps, { tenantId: ctx.auth.tenantId, actor: ctx.actor, requirePasskey: input.requirePasskey }),
  );
