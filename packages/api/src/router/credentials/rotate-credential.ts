import { rotateApiKey } from "@qc/core";
import { z } from "zod";
import { timestamp } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { EXAMPLE } from "../../openapi-examples";

export const rotateCredential = authedProcedure
  .meta({
    scope: "admin",
    action: "own_keys",
    issuesSecret: true,
    openapi: {
      method: "POST",
      path: "/v1/credentials/rotate",
      tags: ["credentials"],
      summary: "Rotate an API key",
      description:
        "Issues a successor with the same label, scopes and expiry and returns its secret, shown only in this answer. " +
        "The old key keeps working for `gracePeriodMinutes` (default 1440, at most 10080; 0 ends it now), then answers " +
        "401 `CREDENTIAL_ROTATED`. A key can be rotated once; a revoked or expired key cannot be rotated (409 " +
        "`CONFLICT`). Another tenant's key is 404.",
      protect: true,
    },
    errors: ["NOT_FOUND", "CONFLICT"],
    example: {
      input: { keyId: EXAMPLE.keyId, gracePeriodMinutes: 60 },
      output: { newKeyId: EXAMPLE.newKeyId, secret: EXAMPLE.secret, oldKeyId: EXAMPLE.keyId, oldKeyExpiresAt: "2026-11-21T11:00:00.000Z" },
    },
  })
  .input(
    z.object({
      keyId: z.string().regex(/^qc_[0-9a-f]{32}$/, "keyId is qc_ followed by 32 hex characters"),
      gracePeriodMinutes: z
        .number()
        .int()
        .min(0)
        .max(7 * 24 * 60)
        .optional()
        .meta({ description: "default 1440 (24 h)" }),
    }),
  )
  .output(
    z.object({
      newKeyId: z.string(),
      secret: z.string().meta({ description: "shown once" }),
      oldKeyId: z.string(),
      oldKeyExpiresAt: timestamp,
    }),
  )
  .mutation(({ ctx, input }) =>
    rotateApiKey(ctx.deps, ctx.deps.config.apiKeyPepper, {
      tenantId: ctx.auth.tenantId,
      keyId: input.keyId,
      gracePeriodMinutes: input.gracePeriodMinutes,
      actor: ctx.actor,
    }),
  );
