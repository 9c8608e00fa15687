import { rotateApiKey } from "@qc/core";
import { z } from "zod";
import { timestamp } from "../../schemas/common";
import { authedProcedure } from "../../trpc";

export const rotateCredential = authedProcedure
  .meta({
    scope: "admin",
    openapi: {
      method: "POST",
      path: "/v1/credentials/rotate",
      tags: ["credentials"],
      summary: "Rotate an API key: a new secret now, the old key valid until its grace period ends",
      protect: true,
    },
  })
  .input(
    z.object({
      keyId: z.string().regex(/^qc_[0-9a-f]{32}$/, "keyId is qc_ followed by 32 hex characters"),
      gracePeriodMinutes: z.number().int().min(0).max(7 * 24 * 60).optional().meta({ description: "default 1440 (24 h)" }),
    }),
  )
  .output(z.object({ newKeyId: z.string(), secret: z.string().meta({ description: "shown once" }), oldKeyId: z.string(), oldKeyExpiresAt: timestamp }))
  .mutation(({ ctx, input }) =>
    rotateApiKey(
      { db: ctx.deps.database.db, pepper: ctx.deps.config.apiKeyPepper, now: ctx.deps.now },
      {
        tenantId: ctx.auth.tenantId,
        keyId: input.keyId,
        gracePeriodMinutes: input.gracePeriodMinutes,
        actor: ctx.auth.kind === "api_key" ? { type: "api_key", id: ctx.auth.keyId! } : { type: "user", id: ctx.auth.userId! },
        requestId: ctx.request.requestId,
        ip: ctx.request.ip,
      },
    ),
  );
