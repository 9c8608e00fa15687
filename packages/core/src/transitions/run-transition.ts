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
    // What follows from the move depends on the moved row only, never on each other's results: it
    // is sent at once, not one statement per round trip. The connection pipelines (createDatabase),
    // so these statements leave together and PostgreSQL runs them one after another in the order
    // sent, exactly as if awaited one by one; a transaction stays open for one round trip here
    // instead of one per statement, each a wait for the Node process's next turn of its event loop
    // (docs/performance/pipeline.md, "Idle in transaction"). Events stay in order among themselves
    // (an aggregate's sequence is the next one at insert time). A failure fails the whole, once
    // every write has settled (`settleAll`).
    // Built before anything is sent: a throw here leaves no chain of statements running.
    const audit = transition.audit?.(row);
    const eventInputs = transition.events?.(row) ?? [];
    const jobs = transition.jobs?.(row) ?? [];
    const [, events] = await settleAll([
      audit &&
        auditAction(t, audit.actor, {
          tenantId: transition.tenantId,
          action: audit.action,
          target: audit.target,
          details: audit.details,
        }),
      emitInOrder(t, eventInputs),
      ...jobs.map((job) => deps.jobs.send(t, job.name, job.payload as never, job.options)),
      transition.also?.(t, row),
    ] as const);
    return { moved: true, row, events };
  };
  return tx ? body(tx) : deps.db.transaction(body);
}

/** The events of one change, inserted one after another (each takes its aggregate's next sequence). */
async function emitInOrder(t: Transaction, events: readonly AnyEventInput[]): Promise<{ id: string; sequence: number }[]> {
  const emitted = [];
  for (const event of events) emitted.push(await emitEvent(t, event as EmitEventInput<EventType>));
  return emitted;
}

/**
 * Every one of `work` settled, then the first error thrown (in time: the statement that failed;
 * those after it only saw the aborted transaction). Never earlier: a chain of statements still
 * running (an event after an event, the history row before `also`) must not be left to send its
 * next statement after the caller's ROLLBACK, where it would run outside the transaction.
 */
export async function settleAll<T extends readonly unknown[]>(work: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  let failure: { error: unknown } | undefined;
  const settled = await Promise.all(
    work.map((item) =>
      Promise.resolve(item).catch((error: unknown) => {
        failure ??= { error };
        return undefined;
      }),
    ),
  );
  if (failure) throw failure.error;
  return settled as { -readonly [K in keyof T]: Awaited<T[K]> };
}
