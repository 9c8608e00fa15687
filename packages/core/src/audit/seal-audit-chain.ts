import type { Database } from "@qc/db";
import { listUnsealedAuditEvents, lockAuditChainHead, sealAuditEvents } from "@qc/db/queries";
import { auditChainFields, auditRowHash } from "./audit-chain";

/** Rows sealed per database transaction (one read, one update): bounds the head lock's hold. */
const SEAL_BATCH = 1000;

/**
 * Chains the tenant's unsealed audit rows (CONTRACT §19): each gets the next `sequence`, the
 * previous row's hash as `prevHash`, and its own `hash`. Writers only insert, so the hot paths
 * gain no lock and no round trip; the chain is made here, under the tenant's head row lock, in
 * id (time) order among the rows committed so far — two sealers at once wait for each other and
 * neither forks the chain nor leaves a gap. Rows written before the chain existed are sealed the
 * same way, in their original order, on the first run. Returns how many rows were sealed.
 *
 * A cheap read first: nothing unsealed, no lock and no write (every export and list calls this).
 */
export async function sealAuditChain(db: Database, tenantId: string): Promise<number> {
  const pending = await listUnsealedAuditEvents(db, { tenantId, limit: 1 });
  if (pending.length === 0) return 0;
  let total = 0;
  for (;;) {
    const sealed = await db.transaction(async (tx) => {
      const head = await lockAuditChainHead(tx, tenantId);
      const rows = await listUnsealedAuditEvents(tx, { tenantId, limit: SEAL_BATCH });
      let { sequence, hash: prevHash } = head;
      const chained = rows.map((row) => {
        sequence += 1;
        const hash = auditRowHash(auditChainFields(row, { tenantId, sequence, prevHash }));
        const link = { id: row.id, sequence, prevHash, hash };
        prevHash = hash;
        return link;
      });
      const count = await sealAuditEvents(tx, { tenantId, rows: chained });
      // Under the head lock no other sealer can have sealed these rows; fewer means a bug, and
      // committing would leave a gap, so nothing of this batch is kept.
      if (count !== chained.length) throw new Error(`sealing ${tenantId}: ${count} of ${chained.length} rows updated`);
      return count;
    });
    total += sealed;
    if (sealed < SEAL_BATCH) return total;
  }
}
