import { listTenantApiKeys } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { toApiKeyRecord, type ApiKeyRecord } from "./api-key-record";

export async function listApiKeys(deps: Pick<ServiceDeps, "db" | "now">, tenantId: string): Promise<ApiKeyRecord[]> {
  const rows = await listTenantApiKeys(deps.db, { tenantId });
  const now = deps.now();
  return rows.map((row) => toApiKeyRecord(row, now));
}
