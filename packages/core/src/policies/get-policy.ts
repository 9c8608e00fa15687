import { findCurrentPolicy } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import type { PolicyRecord } from "./policy-document";
import { toPolicyRecord } from "./policy-record";

/** The tenant's current policy (its newest version), or the implicit allow-all one (version 0). */
export async function getPolicy(deps: Pick<ServiceDeps, "db">, input: { tenantId: string }): Promise<PolicyRecord> {
  return toPolicyRecord(await findCurrentPolicy(deps.db, { tenantId: input.tenantId }));
}
