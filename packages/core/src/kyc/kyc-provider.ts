import { randomUUID } from "node:crypto";
import type { Executor } from "@qc/db";
import type { AccountType } from "@qc/domain";
import { AppError } from "../errors";
import type { ServiceDeps } from "../deps/service-deps";

export interface KycSubject {
  id: string;
  name: string;
  accountType: AccountType;
}

/**
 * An identity-verification (KYC/KYB) provider. `start` opens a case for the tenant and returns
 * the provider's reference for it; the decision arrives later, signed, at
 * `POST /v1/onboarding/kyc/callback` (or, for the sandbox, from the daemon), and is applied by
 * `applyKycDecision`. It runs inside the transaction that records the case, so whatever it
 * enqueues commits with it.
 */
export interface KycProvider {
  name: string;
  start(tenant: KycSubject, tx: Executor): Promise<{ reference: string }>;
}

export const SANDBOX_KYC_PROVIDER = "sandbox";

/**
 * The built-in sandbox: approves every case `delayMs` after it starts, through the job
 * `kyc.sandbox-decide`, whose handler applies the decision with the same service as the signed
 * callback.
 */
export function createSandboxKycProvider(deps: Pick<ServiceDeps, "jobs" | "now">, options: { delayMs: number }): KycProvider {
  return {
    name: SANDBOX_KYC_PROVIDER,
    async start(tenant, tx) {
      const reference = `sandbox_${randomUUID()}`;
      await deps.jobs.send(
        tx,
        "kyc.sandbox-decide",
        { tenantId: tenant.id, reference },
        { startAfter: new Date(deps.now().getTime() + options.delayMs) },
      );
      return { reference };
    },
  };
}

/**
 * The configured provider (KYC_PROVIDER). Only `sandbox` is built in, and it never serves in
 * production, where approving every tenant would defeat the check: there, and for an unknown
 * name, starting a case answers 503 UNAVAILABLE.
 */
export function resolveKycProvider(deps: Pick<ServiceDeps, "config" | "jobs" | "now">): KycProvider {
  const { kyc, production } = deps.config;
  if (kyc.provider === SANDBOX_KYC_PROVIDER && !production) return createSandboxKycProvider(deps, { delayMs: kyc.sandboxDelayMs });
  throw new AppError(
    "UNAVAILABLE",
    `identity verification provider "${kyc.provider}" is not available${production ? " in production" : ""}`,
  );
}
