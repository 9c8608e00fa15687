import type { Database } from "@qc/db";
import { insertAuditEventBatch } from "@qc/db/queries";
import type { Logger } from "../logger";
import { toAuditRow, type AuditEventInput } from "./record-audit-event";

/**
 * Batched audit writes for high-volume events that change no state (authentication failures,
 * refused requests): one multi-row INSERT per flush instead of one per request, so an anonymous
 * flood cannot turn every request into a synchronous database write. State changes never use
 * this: they write their audit row in their own transaction (recordAuditEvent).
 * A crash loses at most one flush interval of these rows (documented in docs/decisions).
 */
export class AuditBuffer {
  private pending: AuditEventInput[] = [];
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
    private readonly options: { intervalMs: number; maxBatch: number } = { intervalMs: 100, maxBatch: 500 },
  ) {
    this.timer = setInterval(() => void this.flush(), options.intervalMs);
    this.timer.unref();
  }

  add(event: AuditEventInput): void {
    this.pending.push(event);
    if (this.pending.length >= this.options.maxBatch) void this.flush();
  }

  /** Writes everything buffered so far; resolves once it is in the database. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.length === 0) return;
      const batch = this.pending;
      this.pending = [];
      try {
        await insertAuditEventBatch(this.db, batch.map(toAuditRow));
      } catch (err) {
        this.log.error({ err, lost: batch.length }, "could not write buffered audit events");
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
