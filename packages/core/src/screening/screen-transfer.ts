import type { Executor } from "@qc/db";
import type { ServiceConfig } from "../deps/service-config";
import { createDenylistScreeningProvider } from "./denylist-screening-provider";
import { createHttpScreeningProvider } from "./http-screening-provider";
import type { ScreeningRequest, ScreeningResult } from "./screening-provider";

const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;

/**
 * Screens a transfer: the built-in denylist always (the service's and the tenant's lists, so a
 * tenant's own list works whatever provider is configured), then the HTTP provider when
 * SCREENING_PROVIDER_URL is set. The first BLOCKED verdict decides. Throws
 * ScreeningUnavailableError when the HTTP provider gives no verdict.
 */
export async function screenTransfer(deps: { db: Executor; config: Pick<ServiceConfig, "screening"> }, request: ScreeningRequest): Promise<ScreeningResult> {
  const { screening } = deps.config;
  const denylist = await createDenylistScreeningProvider({ db: deps.db, serviceDenylist: screening.denylist }).screen(request);
  if (denylist.decision === "BLOCKED" || !screening.providerUrl) return denylist;
  return createHttpScreeningProvider({ url: screening.providerUrl, timeoutMs: screening.providerTimeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS }).screen(request);
}
