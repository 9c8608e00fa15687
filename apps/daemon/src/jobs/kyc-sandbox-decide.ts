import { applyKycDecision, type ParsedJobPayload } from "@qc/core";
import type { JobContext } from "../context";

/**
 * Job `kyc.sandbox-decide`: the sandbox provider approves the case, through the same service as
 * the signed provider callback. A case decided the same way meanwhile is left as it is
 * (`applied: false`); one decided otherwise or gone is a final error the runner dead-letters.
 */
export async function decideSandboxKyc(payload: ParsedJobPayload<"kyc.sandbox-decide">, ctx: JobContext) {
  const result = await applyKycDecision(ctx, {
    tenantId: payload.tenantId,
    reference: payload.reference,
    decision: "APPROVED",
    reason: null,
    source: "sandbox",
  });
  ctx.log.info({ tenantId: payload.tenantId, reference: payload.reference, applied: result.applied }, "sandbox KYC decision applied");
  return { applied: result.applied, tenantStatus: result.tenantStatus };
}
