import type { Executor } from "@qc/db";
import { findScreeningDenylistMatches } from "@qc/db/queries";
import type { ScreeningProvider, ScreeningRequest, ScreeningResult } from "./screening-provider";

export const DENYLIST_PROVIDER = "denylist";

/**
 * The built-in provider: blocks a destination on the service's list (SCREENING_DENYLIST) or on
 * the tenant's own list (`PUT /v1/settings/screening-denylist`); clears everything else.
 */
export function createDenylistScreeningProvider(options: { db: Executor; serviceDenylist: readonly string[] }): ScreeningProvider {
  const service = new Set(options.serviceDenylist.map(canonicalEntry));
  return {
    name: DENYLIST_PROVIDER,
    async screen(request: ScreeningRequest): Promise<ScreeningResult> {
      const destination = request.destinationAddress;
      const reasons: string[] = [];
      if (service.has(destination)) reasons.push(`destination ${destination} is on the service's denylist`);
      const [tenantEntry] = await findScreeningDenylistMatches(options.db, { tenantId: request.tenantId, addresses: [destination] });
      if (tenantEntry)
        reasons.push(`destination ${destination} is on the tenant's denylist${tenantEntry.label ? ` (${tenantEntry.label})` : ""}`);
      return { provider: DENYLIST_PROVIDER, decision: reasons.length ? "BLOCKED" : "CLEAR", riskScore: null, reasons };
    },
  };
}

/** SCREENING_DENYLIST entries in any case, with or without 0x, compared in canonical form. */
function canonicalEntry(address: string): string {
  const lower = address.trim().toLowerCase();
  return lower.startsWith("0x") ? lower : `0x${lower}`;
}
