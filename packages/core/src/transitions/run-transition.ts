import type { Transaction } from "@qc/db";
import type { AuditAction } from "../audit/actions";
import { auditAction, type Actor, type AuditTarget } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import type { EventType } from "../events/catalog";
import { emitEvent, type EmitEventInput } from "../events/emit-event";
import type { JobName, JobPayload } from "../jobs/catalog";
import type { SendOptions } from "../jobs/queue";

/** A job to enqueue in the transition's database transaction. */
export interface JobRequest<N extends JobName = JobName> {
  name: N;
  payload: JobPayload<N>;
  options?: SendOptions;
}

export const jobRequest = <N extends JobName>(name: N, payload: JobPayload<N>, options?: SendOptions): JobRequest =>
  ({ name, payload, ...(options ? { options } : {}) }) as JobRequest;

/** Any event of the catalog, typed by its `type`. */
export type AnyEventInput = { [T in EventType]: EmitEventInput<T> }[EventType];

export interface AuditEntry {
  actor: Actor;
  action: AuditAction;
  target?: AuditTarget;
  details?: Record<string, unknown>;
}

/**
 * One state change, declared: the conditional UPDATE that moves the row, then what follows from
 * the move (audit row, events, next jobs, any other write), all in one database transaction.
 */
export interface Transition<R> {
  tenantId: string;
  /** `UPDATE … WHERE status IN ($expected) RETURNING *` (see `updateWhereStatus`): the row if this call moved it. */
  move(tx: Transaction): Promise<R | undefined>;
  audit?(row: R): AuditEntry;
  events?(row: R): AnyEventInput[];
  jobs?(row: R): JobRequest[];
  /** Further writes that belong to the same change (e.g. a status-history row). */
  also?(tx: Transaction, row: R): Promise<void>;
}

export type TransitionOutcome<R> =
  | { moved: true; row: R; events: { id: string; sequence: number }[] }
  /** Someone else moved it first (or it is not in an expected state): the caller decides. */
  | { moved: false };

/**
 * Runs a transition in `tx` when given (the caller's larger change), else in its own database
 * transaction. Exactly-once by construction: only the caller whose UPDATE matched writes the
 * audit row, events and jobs; a retried job or a concurrent instance gets `moved: false`.
 */
export async function runTransition<R>(
  deps: Pick<ServiceDeps, "db" | "jobs">,
  transition: Transition<R>,
  tx?: Transaction,
): Promise<TransitionOutcome<R>> {
  const body = async (t: Transaction): Promise<TransitionOutcome<R>> => {
    const row = await transition.move(t);
    if (row === undefined) return { moved: false };
    const audit = transition.audit?.(row);
    if (audit)
      await auditAction(t, audit.actor, {
        tenantId: transition.tenantId,
        action: audit.action,
        target: audit.target,
        details: audit.details,
      });
    const events = [];
    for (const event of transition.events?.(row) ?? []) events.push(await emitEvent(t, event as EmitEventInput<EventType>));
    for (const job of transition.jobs?.(row) ?? []) await deps.jobs.send(t, job.name, job.payload as never, job.options);
    await transition.also?.(t, row);
    return { moved: true, row, events };
  };
  return tx ? body(tx) : deps.db.transaction(body);
}
