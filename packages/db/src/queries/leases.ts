import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { leases } from "../schema/system";

/**
 * Takes or renews the lease `name` for `holder` for `seconds` (database clock): granted when nobody
 * holds it, when `holder` already does, or when the holder's lease has run out. One statement;
 * true when `holder` holds the lease after it.
 */
export async function takeLease(db: Executor, params: { name: string; holder: string; seconds: number }): Promise<boolean> {
  const expires = sql`now() + make_interval(secs => ${params.seconds})`;
  const rows = await db
    .insert(leases)
    .values({ name: params.name, holder: params.holder, expiresAt: expires, updatedAt: sql`now()` })
    .onConflictDoUpdate({
      target: leases.name,
      set: { holder: params.holder, expiresAt: expires, updatedAt: sql`now()` },
      setWhere: sql`${leases.holder} = ${params.holder} or ${leases.expiresAt} < now()`,
    })
    .returning({ name: leases.name });
  return rows.length === 1;
}

/** Gives the lease up at once (a clean stop), so another instance takes it without waiting for it to run out. */
export async function releaseLease(db: Executor, params: { name: string; holder: string }): Promise<void> {
  await db.delete(leases).where(and(eq(leases.name, params.name), eq(leases.holder, params.holder)));
}
