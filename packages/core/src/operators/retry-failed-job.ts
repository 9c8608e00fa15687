import type { Database } from "@qc/db";
import { findJobById } from "@qc/db/queries";
import type { JobQueue } from "../jobs/queue";
import { AppError } from "../errors";
import type { OperatorPrincipal } from "./authenticate-operator";
import { recordOperatorAudit } from "./record-operator-audit";

/**
 * Runs a failed job again. A dead-lettered job is moved back to the queue it failed in (pg-boss
 * redrive: a fresh attempt count, its payload unchanged); a job that failed in a queue without a
 * dead-letter queue is retried in place. Every job re-reads its row and does nothing when the
 * state has moved on, so a retry is safe even when the cause was fixed by other means.
 */
export async function retryFailedJob(
  deps: { db: Database; jobs: Pick<JobQueue, "boss"> },
  input: { jobId: string; operator: OperatorPrincipal; requestId?: string; ip?: string },
): Promise<{ jobId: string; queue: string; status: "REQUEUED" }> {
  const job = await findJobById(deps.db, input.jobId);
  if (!job) throw new AppError("NOT_FOUND", "no such job");
  let queue = job.queue;
  if (job.deadLettered && job.state === "created") {
    const moved = await deps.jobs.boss.redrive(job.queue, { ids: [job.id], limit: 1 });
    if (moved !== 1)
      throw new AppError(
        "CONFLICT",
        "the job could not be moved back to its queue (its source queue no longer exists, or it moved meanwhile)",
      );
    // Redrive enqueues a copy (a new job id) in the queue the job failed in.
    queue = job.sourceQueue ?? job.queue;
  } else if (job.state === "failed") {
    const result = await deps.jobs.boss.retry(job.queue, job.id);
    if (affected(result) !== 1) throw new AppError("CONFLICT", "the job is no longer failed");
  } else {
    throw new AppError("CONFLICT", `only a failed or dead-lettered job can be retried; this one is ${job.state}`);
  }
  await recordOperatorAudit(deps.db, {
    action: "operator.job_retried",
    operatorId: input.operator.operatorId,
    targetType: "job",
    targetId: job.id,
    requestId: input.requestId,
    ip: input.ip,
    details: { from: job.queue, to: queue },
  });
  return { jobId: job.id, queue, status: "REQUEUED" };
}

/** pg-boss answers commands with the number of jobs they changed (not in its declared type). */
function affected(result: object): number {
  return (result as { affected?: number }).affected ?? 0;
}
