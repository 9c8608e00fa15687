import { createDatabase, sql } from "@qc/db";

/** Transactions committed and rows inserted/updated/deleted in the benchmark's database so far. */
export async function databaseCounters(url: string): Promise<{ transactions: number; rowsWritten: number }> {
  const database = createDatabase({ url });
  try {
    // Statistics reach pg_stat_database up to a second after a transaction ends.
    await new Promise((r) => setTimeout(r, 2500));
    await database.db.execute(sql`select pg_stat_clear_snapshot()`);
    const rows = await database.db.execute<{ xact: string; written: string }>(
      sql`select xact_commit + xact_rollback as xact, tup_inserted + tup_updated + tup_deleted as written from pg_stat_database where datname = current_database()`,
    );
    const row =
      (rows as unknown as { rows?: { xact: string; written: string }[] }).rows?.[0] ??
      (rows as unknown as { xact: string; written: string }[])[0]!;
    return { transactions: Number(row.xact), rowsWritten: Number(row.written) };
  } finally {
    await database.close();
  }
}
