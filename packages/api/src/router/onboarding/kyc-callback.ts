import { AppError, applyKycDecision, KYC_SIGNATURE_HEADER, verifyKycSignature } from "@qc/core";
import { KYC_DECISIONS } from "@qc/domain";
import { z } from "zod";
import { multilineText, text, uuid } from "../../schemas/common";
import { publicProcedure } from "../../trpc";
import { kycCaseRecord, tenantStatus } from "./schemas";
import { EXAMPLE, EXAMPLE_KYC_CASE } from "../../openapi-examples";

/**
 * The signature is checked over the raw bytes before the body is even validated: an unsigned
 * request learns nothing, not even which fields are wrong.
 */
const signedByProvider = publicProcedure.use(async ({ ctx, next }) => {
  const header = ctx.request.headers[KYC_SIGNATURE_HEADER];
  const signature = Array.isArray(header) ? header[0] : header;
  const rawBody = ctx.request.transport === "rest" ? ctx.request.rawBody : undefined;
  if (!verifyKycSignature(ctx.deps.config.kyc.webhookSecret, rawBody, signature)) {
    ctx.deps.authenticator.recordRefusal({
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
      summary: "KYC provider decision (provider callback)",
      description:
        "Called by the identity-verification provider, not by integrators. Signed: header `X-KYC-Signature: " +
        "sha256=<hex HMAC-SHA256(KYC_WEBHOOK_SECRET, raw body)>`; a missing or wrong signature is 401 and the body is " +
        "not even validated. Applies the decision to the tenant's pending case (tenant `VERIFIED` or `REJECTED`). " +
        "Idempotent: replaying a decision answers 200 with `applied: false` and changes nothing; a different decision " +
        "for a decided case is 409.",
      protect: false,
      requestHeaders: z.object({
        "x-kyc-signature": z
          .string()
          .meta({ description: "sha256=<hex HMAC-SHA256 of the raw body with the KYC webhook secret>", example: "sha256=9c1e…" }),
      }),
    },
    errors: ["UNAUTHENTICATED", "NOT_FOUND", "CONFLICT"],
    example: {
      input: { tenantId: EXAMPLE.tenantId, decision: "APPROVED", reference: EXAMPLE_KYC_CASE.reference },
      output: {
        applied: true,
        tenantId: EXAMPLE.tenantId,
        tenantStatus: "VERIFIED",
        kyc: { ...EXAMPLE_KYC_CASE, status: "APPROVED", decidedAt: "2026-11-21T10:00:02.000Z" },
      },
    },
  })
  .input(
    z.object({
      tenantId: uuid,
      decision: z.enum(KYC_DECISIONS),
      reference: text().min(1).max(200),
      reason: multilineText().max(1000).optional(),
    }),
  )
  .output(z.object({ applied: z.boolean(), tenantId: uuid, tenantStatus, kyc: kycCaseRecord }))
  .mutation(({ ctx, input }) =>
    applyKycDecision(ctx.deps, { ...input, source: "callback", requestId: ctx.request.requestId, ip: ctx.request.ip }),
  );
