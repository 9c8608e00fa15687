import { listScreeningDenylistEntries, type ScreeningDenylistEntryValue } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";

/** The tenant's own screening denylist, in its order. */
export async function getScreeningDenylist(
  deps: Pick<ServiceDeps, "db">,
  input: { tenantId: string },
): Promise<ScreeningDenylistEntryValue[]> {
  return listScreeningDenylistEntries(deps.db, { tenantId: input.tenantId });
}
