import { listChainedAuditEvents } from "@qc/db/queries";
import { auditChainFields, type AuditChainFields } from "./audit-chain";
import {
  checkpointAuditChain,
  listAuditCheckpoints,
  type AuditCheckpointRecord,
  type CheckpointAuditChainDeps,
} from "./checkpoint-audit-chain";

/** Rows read per query: the export holds one page (and its checkpoints) at a time, however long the log. */
export const AUDIT_EXPORT_PAGE_SIZE = 1000;

/** An export line for one audit row: its chain fields, its id and its hash. */
export type AuditExportEventLine = { kind: "event"; id: string } & AuditChainFields & { hash: string };

/** An export line for a signed checkpoint, right after the row it covers. */
export type AuditExportCheckpointLine = { kind: "checkpoint" } & AuditCheckpointRecord;

export type AuditExportLine = AuditExportEventLine | AuditExportCheckpointLine;

export type ExportAuditLogDeps = CheckpointAuditChainDeps;

export interface ExportAuditLogInput {
  tenantId: string;
  /** The first sequence to export (default 1). */
  fromSequence?: number;
  /** The last sequence to export (default, and at most, the head signed when the export starts). */
  toSequence?: number;
  /** Rows per query (default AUDIT_EXPORT_PAGE_SIZE). */
  pageSize?: number;
}

/**
 * The tenant's audit log for export (CONTRACT §19): first the chain is sealed and its head
 * signed (checkpointAuditChain), so that a full export ends on a signed checkpoint; then the
 * returned iterable yields, in sequence order, one line per row and each checkpoint right after
 * the row it covers. Rows are read in keyset pages over (tenant_id, sequence) as the consumer
 * pulls, so memory stays one page whatever the log's length; rows sealed after the start are
 * left for the next export. Everything that can fail before the first line (sealing, signing)
 * fails here, before the iterable is returned.
 */
export async function exportAuditLog(deps: ExportAuditLogDeps, input: ExportAuditLogInput): Promise<AsyncGenerator<AuditExportLine>> {
  const head = await checkpointAuditChain(deps, input.tenantId);
  const last = Math.min(input.toSequence ?? Number.MAX_SAFE_INTEGER, head?.sequence ?? 0);
  return exportLines(deps, {
    tenantId: input.tenantId,
    from: input.fromSequence ?? 1,
    to: last,
    pageSize: input.pageSize ?? AUDIT_EXPORT_PAGE_SIZE,
  });
}

async function* exportLines(
  { db }: Pick<ExportAuditLogDeps, "db">,
  { tenantId, from, to, pageSize }: { tenantId: string; from: number; to: number; pageSize: number },
): AsyncGenerator<AuditExportLine> {
  let after = from - 1;
  while (after < to) {
    const rows = await listChainedAuditEvents(db, { tenantId, afterSequence: after, toSequence: to, limit: pageSize });
    const lastRow = rows.at(-1);
    if (!lastRow) return;
    const checkpoints = await listAuditCheckpoints(db, { tenantId, fromSequence: after + 1, toSequence: lastRow.sequence! });
    const bySequence = new Map(checkpoints.map((c) => [c.sequence, c]));
    for (const row of rows) {
      const sequence = row.sequence!;
      yield { kind: "event", id: row.id, ...auditChainFields(row, { tenantId, sequence, prevHash: row.prevHash! }), hash: row.hash! };
      const checkpoint = bySequence.get(sequence);
      if (checkpoint) {
        const { hash, signedAt, keyId, signature } = checkpoint;
        yield { kind: "checkpoint", tenantId, sequence, hash, signedAt, keyId, signature };
      }
    }
    after = lastRow.sequence!;
  }
}
