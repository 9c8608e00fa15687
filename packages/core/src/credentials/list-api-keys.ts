import { desc, eq, schema, type Database } from "@qc/db";
import { toApiKeyRecord, type ApiKeyRecord } from "./api-key-record";

export async function listApiKeys(deps: { db: Database; now(): Date }, tenantId: string): Promise<ApiKeyRecord[]> {
  const rows = await deps.db.select().from(schema.apiKeys).where(eq(schema.apiKeys.tenantId, tenantId)).orderBy(desc(schema.apiKeys.id));
  const now = deps.now();
  return rows.map((row) => toApiKeyRecord(row, now));
}
