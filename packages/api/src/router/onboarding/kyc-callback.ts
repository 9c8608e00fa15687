import { AppError, applyKycDecision, KYC_SIGNATURE_HEADER, recordAuditEvent, verifyKycSignature } from "@qc/core";
import { z } from "zod";
import { uuid } from "../../schemas/common";
import { publicProcedure } from "../../trpc";
import { kycCaseRecord, tenantStatus } from "./schemas";

/**
 * The signature is checked over the raw bytes before the body is even validated: an unsigned
 * request learns nothing, not even which fields are wrong.
 */
const signedByProvider = publicProcedure.use(async ({ ctx, next }) => {
  const header = ctx.request.headers[KYC_SIGNATURE_HEADER];
  const signature = Array.isArray(header) ? header[0] : header;
  const rawBody = ctx.request.transport === "rest" ? ctx.request.rawBody : undefined;
  if (!verifyKycSignature(ctx.deps.config.kyc.webhookSecret, rawBody, signature)) {
    await recordAuditEvent(ctx.deps.database.db, {
      action: "auth.failed",
      actorType: "provider",
      requestId: ctx.request.requestId,
      ip: ctx.request.ip,
      details: { reason: signature ? "bad_kyc_signature" : "missing_kyc_signature", counted: false, via: "kyc_callback" },
    });
    throw new AppError("UNAUTHENTICATED", "missing or invalid X-KYC-Signature");
  }
  return next();
});

export const kycCallbackProcedure = signedByProvider
  .meta({
    openapi: {
      method: "POST",
      path: "/v1/onboarding/kyc/callback",
      tags: ["onboarding"],
      summary: "KYC provider decision (signed: X-KYC-Signature: sha256=<hex HMAC-SHA256(KYC_WEBHOOK_SECRET, raw body)>)",
      description: "Idempotent: a replayed decision answers 200 with applied=false and changes nothing.",
      protect: false,
    },
  })
  .input(
    z.object({
      tenantId: uuid,
      decision: z.enum(["APPROVED", "REJECTED"]),
      reference: z.string().min(1).max(200),
      reason: z.string().max(1000).optional(),
    }),
  )
  .output(z.object({ applied: z.boolean(), tenantId: uuid, tenantStatus, kyc: kycCaseRecord }))
  .mutation(({ ctx, input }) =>
    applyKycDecision(
      { db: ctx.deps.database.db, now: ctx.deps.now },
      { ...input, source: "callback", requestId: ctx.request.requestId, ip: ctx.request.ip },
    ),
  );
