import { requestPasswordReset, type ParsedJobPayload } from "@qc/core";
import type { JobContext } from "../context";

/** Job `identity.password-reset-request`: emails a reset link if the address has an account. */
export async function requestPasswordResetJob(payload: ParsedJobPayload<"identity.password-reset-request">, ctx: JobContext) {
  const { sent } = await requestPasswordReset(ctx, { email: payload.email, requestId: payload.requestId, ip: payload.ip });
  return { sent };
}
