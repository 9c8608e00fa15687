import { AppError, applyKycDecision, type ParsedJobPayload } from "@qc/core";
import type { JobContext } from "../context";

/**
 * Job `kyc.sandbox-decide`: the sandbox provider approves the case, through the same service as
 * the signed provider callback. A case decided meanwhile (by a callback) or gone is left as it
 * is: the state has moved on, there is nothing to retry.
 */
export async function decideSandboxKyc(payload: ParsedJobPayload<"kyc.sandbox-decide">, ctx: JobContext) {
  try {
    const result = await applyKycDecision(
      { db: ctx.database.db, now: ctx.now },
      { tenantId: payload.tenantId, reference: payload.reference, decision: "APPROVED", reason: null, source: "sandbox" },
    );
    ctx.log.info({ tenantId: payload.tenantId, reference: payload.reference, applied: result.applied }, "sandbox KYC decision applied");
    return { applied: result.applied, tenantStatus: result.tenantStatus };
  } catch (error) {
    if (error instanceof AppError && (error.error === "CONFLICT" || error.error === "NOT_FOUND")) {
      ctx.log.info({ tenantId: payload.tenantId, reference: payload.reference, reason: error.message }, "sandbox KYC decision skipped");
      return { applied: false, skipped: error.error };
    }
    throw error;
  }
}
