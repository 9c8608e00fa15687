import { count, eq, isNull, schema, sql, type Executor } from "@qc/db";

export interface SignerKeyCounts {
  /** Enrolled keys no wallet uses yet: what `wallets/generate` can still hand out. */
  available: number;
  assigned: number;
}

export async function countSignerKeys(deps: { db: Executor }, input: { tenantId: string }): Promise<SignerKeyCounts> {
  const [row] = await deps.db
    .select({
      available: sql<number>`(count(*) filter (where ${isNull(schema.signerKeys.walletId)}))::int`,
      total: count(),
    })
    .from(schema.signerKeys)
    .where(eq(schema.signerKeys.tenantId, input.tenantId));
  const available = Number(row?.available ?? 0);
  return { available, assigned: Number(row?.total ?? 0) - available };
}
