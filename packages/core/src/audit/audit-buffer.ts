import type { Database } from "@qc/db";
import { insertAuditEventBatch } from "@qc/db/queries";
import { sourceKey } from "../auth/source-key";
import type { Logger } from "../logger";
import { toAuditRow, type AuditEventInput } from "./record-audit-event";

export interface AuditBufferOptions {
  /** How often buffered rows are written. */
  intervalMs: number;
  /** Rows waiting that trigger a write at once. */
  maxBatch: number;
  /** Refusals are counted per window of this length; a window's counts are written when it ends. */
  windowMs: number;
  /** Refusals naming a tenant written one row each per (tenant, actor, action, reason) and window, before the rest is counted. */
  namedPerWindow: number;
  /** Distinct groups counted per window; past it, refusals fold into one "other sources" group per (tenant, action, reason). */
  maxGroupsPerWindow: number;
}

export const DEFAULT_AUDIT_BUFFER_OPTIONS: AuditBufferOptions = {
  intervalMs: 100,
  maxBatch: 500,
  windowMs: 60_000,
  namedPerWindow: 20,
  maxGroupsPerWindow: 256,
};

/** How many request ids an aggregated row keeps, to find the requests in the logs. */
const SAMPLE_REQUEST_IDS = 5;

/** What an aggregated row adds to the first refusal's details (`details.aggregated`). */
export interface AggregatedRefusals {
  /** Refusals this row stands for (those not written as rows of their own). */
  count: number;
  firstAt: string;
  lastAt: string;
  /** The counted source: an IPv4 address or an IPv6 /64; null for the "other sources" row. */
  source: string | null;
  /** Refusals past the window's group cap, of any source. */
  otherSources: boolean;
  requestIds: string[];
}

interface Group {
  first: AuditEventInput;
  source: string | null;
  otherSources: boolean;
  seen: number;
  /** Seen but not written as rows of their own. */
  counted: number;
  firstAt: number;
  lastAt: number;
  requestIds: string[];
}

/**
 * Batched, bounded audit writes for refusals that change no state (authentication failures,
 * refused requests). State changes never come here: they write their audit row in their own
 * transaction (recordAuditEvent).
 *
 * The table is append-only (no DELETE, no TRUNCATE), so what an unauthenticated client can make
 * it write must be bounded (docs/decisions/access-control.md, "Audit"):
 * - a refusal that names no tenant (missing or unknown credentials, key material, a bad provider
 *   signature) is counted, one row per (action, reason, source, window) with the count, where
 *   the source is the address, IPv6 by its /64;
 * - a refusal that names a tenant (a known user, session or key) gets a row of its own, up to
 *   `namedPerWindow` per (tenant, actor, action, reason) and window; beyond that it is counted;
 * - past `maxGroupsPerWindow` groups in a window, further refusals fold into one "other sources"
 *   group per (tenant, action, reason).
 * So a flood adds at most a few hundred rows a minute however many requests it sends, and every
 * refusal is still in the log: as a row, or in an aggregated row's `details.aggregated.count`.
 * A crash loses what was not written yet: at most one window of counts.
 */
export class AuditBuffer {
  private pending: AuditEventInput[] = [];
  private groups = new Map<string, Group>();
  private windowStartedAt = Date.now();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private readonly options: AuditBufferOptions;

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
    options: Partial<AuditBufferOptions> = {},
  ) {
    this.options = { ...DEFAULT_AUDIT_BUFFER_OPTIONS, ...options };
    this.timer = setInterval(() => void this.tick(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Records one refusal: as a row of its own or in its group's count (see the class comment). */
  add(event: AuditEventInput): void {
    const now = Date.now();
    if (now - this.windowStartedAt >= this.options.windowMs) this.closeWindow(now);
    const named = event.tenantId !== undefined && event.tenantId !== null;
    const reason = String(event.details?.reason ?? event.details?.kind ?? "");
    const source = event.ip ? sourceKey(event.ip) : null;
    let key = named
      ? `t|${event.tenantId}|${event.action}|${reason}|${event.actorId ?? ""}`
      : `a|${event.action}|${reason}|${source ?? ""}`;
    let otherSources = false;
    if (!this.groups.has(key) && this.groups.size >= this.options.maxGroupsPerWindow) {
      key = `o|${event.tenantId ?? ""}|${event.action}|${reason}`;
      otherSources = true;
    }
    let group = this.groups.get(key);
    if (!group) {
      group = {
        first: event,
        source: otherSources ? null : source,
        otherSources,
        seen: 0,
        counted: 0,
        firstAt: now,
        lastAt: now,
        requestIds: [],
      };
      this.groups.set(key, group);
    }
    group.seen++;
    if (named && !otherSources && group.seen <= this.options.namedPerWindow) {
      this.pending.push(event);
      if (this.pending.length >= this.options.maxBatch) void this.write();
      return;
    }
    if (group.counted === 0) group.firstAt = now;
    group.counted++;
    group.lastAt = now;
    if (event.requestId && group.requestIds.length < SAMPLE_REQUEST_IDS) group.requestIds.push(event.requestId);
  }

  /** Writes everything recorded so far, the open window's counts included; resolves once it is in the database. */
  flush(): Promise<void> {
    this.closeWindow(Date.now());
    return this.write();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private tick(): Promise<void> {
    if (Date.now() - this.windowStartedAt >= this.options.windowMs) this.closeWindow(Date.now());
    return this.write();
  }

  /** Turns the window's counts into rows (queued for the next write) and starts a new window. */
  private closeWindow(now: number): void {
    for (const group of this.groups.values()) {
      if (group.counted === 0) continue;
      const aggregated: AggregatedRefusals = {
        count: group.counted,
        firstAt: new Date(group.firstAt).toISOString(),
        lastAt: new Date(group.lastAt).toISOString(),
        source: group.source,
        otherSources: group.otherSources,
        requestIds: group.requestIds,
      };
      const { first } = group;
      this.pending.push({
        ...first,
        // An anonymous group mixes whatever ids its requests claimed; the other-sources row, addresses.
        actorId: first.tenantId ? first.actorId : null,
        ip: group.otherSources ? null : first.ip,
        requestId: group.requestIds[0] ?? null,
        details: { ...first.details, aggregated },
      });
    }
    this.groups = new Map();
    this.windowStartedAt = now;
  }

  private write(): Promise<void> {
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
}
