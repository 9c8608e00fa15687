import { countTenantSignerKeys } from "@qc/db/queries";
import type { Executor } from "@qc/db";
import type { ServiceDeps } from "../deps/service-deps";

export interface SignerKeyCounts {
  /** Enrolled keys no wallet uses yet: what `wallets/generate` can still hand out. */
  available: number;
  assigned: number;
}

export async function countSignerKeys(deps: Pick<ServiceDeps, "db">, input: { tenantId: string }): Promise<SignerKeyCounts> {
  return readSignerKeyCounts(deps.db, input.tenantId);
}

/** The counts as `executor` sees them (inside a transaction: including its own inserts). */
export async function readSignerKeyCounts(executor: Executor, tenantId: string): Promise<SignerKeyCounts> {
  const { total, available } = await countTenantSignerKeys(executor, { tenantId });
  return { available, assigned: total - available };
}
