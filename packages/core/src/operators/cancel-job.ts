import type { Database } from "@qc/db";
import { findJobById } from "@qc/db/queries";
import type { JobQueue } from "../jobs/queue";
import { AppError } from "../errors";
import type { OperatorPrincipal } from "./authenticate-operator";
import { recordOperatorAudit } from "./record-operator-audit";

/**
 * Gives up on a job: a dead-lettered one leaves the dead-letter backlog, one waiting for its next
 * retry is not attempted again. Cancelled jobs stay in pg-boss's table until its retention ends.
 */
export async function cancelJob(
  deps: { db: Database; jobs: Pick<JobQueue, "boss"> },
  input: { jobId: string; operator: OperatorPrincipal; requestId?: string; ip?: string },
): Promise<{ jobId: string; queue: string; status: "CANCELLED" }> {
  const job = await findJobById(deps.db, input.jobId);
  if (!job) throw new AppError("NOT_FOUND", "no such job");
  if (job.state !== "created" && job.state !== "retry")
    throw new AppError("CONFLICT", `only a waiting job can be cancelled; this one is ${job.state}`);
  const result = await deps.jobs.boss.cancel(job.queue, job.id);
  if (affected(result) !== 1) throw new AppError("CONFLICT", "the job started or ended meanwhile");
  await recordOperatorAudit(deps.db, {
    action: "operator.job_cancelled",
    operatorId: input.operator.operatorId,
    targetType: "job",
    targetId: job.id,
    requestId: input.requestId,
    ip: input.ip,
    details: { queue: job.queue, state: job.state },
  });
  return { jobId: job.id, queue: job.queue, status: "CANCELLED" };
}

/** pg-boss answers commands with the number of jobs they changed (not in its declared type). */
function affected(result: object): number {
  return (result as { affected?: number }).affected ?? 0;
}
