import type { Executor } from "@qc/db";
import { recordScreeningAttempt, type TransactionStatusValue } from "@qc/db/queries";
import type { ServiceConfig } from "../deps/service-config";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { createDenylistScreeningProvider } from "./denylist-screening-provider";
import { createHttpScreeningProvider } from "./http-screening-provider";
import { ScreeningUnavailableError, type ScreeningRequest, type ScreeningResult } from "./screening-provider";

const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;

/** The screening verdict recorded when the provider stayed down: fail closed. */
export const PROVIDER_UNAVAILABLE = "provider unavailable";

/** Whether `result` is the fail-closed verdict of `screenTransferFailingClosed` rather than a provider's. */
export function isProviderUnavailable(result: ScreeningResult): boolean {
  return (
    result.decision === "BLOCKED" && result.riskScore === null && result.reasons.length === 1 && result.reasons[0] === PROVIDER_UNAVAILABLE
  );
}

/**
 * Screens a transfer: the built-in denylist always (the service's and the tenant's lists, so a
 * tenant's own list works whatever provider is configured), then the HTTP provider when
 * SCREENING_PROVIDER_URL is set. The first BLOCKED verdict decides. Throws
 * ScreeningUnavailableError when the HTTP provider gives no verdict.
 */
export async function screenTransfer(
  deps: { db: Executor; config: Pick<ServiceConfig, "screening"> },
  request: ScreeningRequest,
): Promise<ScreeningResult> {
  const { screening } = deps.config;
  const denylist = await createDenylistScreeningProvider({ db: deps.db, serviceDenylist: screening.denylist }).screen(request);
  if (denylist.decision === "BLOCKED" || !screening.providerUrl) return denylist;
  return createHttpScreeningProvider({
    url: screening.providerUrl,
    timeoutMs: screening.providerTimeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS,
  }).screen(request);
}

/**
 * `screenTransfer` for a stored transaction in `status`, failing closed — the one retry rule of
 * the checks (SUBMITTED) and of their re-run before release (QUEUED) or broadcast (SIGNED). A
 * provider that gives no verdict counts an attempt on the row (only while it is still in
 * `status`) and throws 503 UNAVAILABLE, so the job retries; at `config.screening.maxAttempts`
 * the verdict is BLOCKED with the reason "provider unavailable".
 */
export async function screenTransferFailingClosed(
  deps: Pick<ServiceDeps, "db" | "config" | "now" | "log">,
  request: ScreeningRequest,
  status: TransactionStatusValue,
): Promise<ScreeningResult> {
  try {
    return await screenTransfer(deps, request);
  } catch (error) {
    if (!(error instanceof ScreeningUnavailableError)) throw error;
    const attempts = await recordScreeningAttempt(deps.db, {
      tenantId: request.tenantId,
      transactionId: request.transactionId,
      at: deps.now(),
      status,
    });
    if (attempts === undefined) throw new AppError("INVALID_TRANSACTION_STATE", "the transaction has moved on");
    const { maxAttempts } = deps.config.screening;
    deps.log.warn(
      { transactionId: request.transactionId, status, provider: error.provider, attempts, maxAttempts, err: error },
      "screening provider unavailable",
    );
    if (attempts >= maxAttempts) return { provider: error.provider, decision: "BLOCKED", riskScore: null, reasons: [PROVIDER_UNAVAILABLE] };
    throw new AppError("UNAVAILABLE", `the screening provider is unavailable (attempt ${attempts} of ${maxAttempts}): ${error.message}`, {
      cause: error,
    });
  }
}
