import { listIpAllowlistEntries } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";

export interface AllowlistEntry {
  cidr: string;
  label: string;
}

/** The tenant's IP allowlist in its order (empty: API keys may call from anywhere). */
export async function getIpAllowlist(deps: Pick<ServiceDeps, "db">, input: { tenantId: string }): Promise<AllowlistEntry[]> {
  return listIpAllowlistEntries(deps.db, { tenantId: input.tenantId });
}
