import { retryFailedJob } from "@qc/core";
import { z } from "zod";
import { operatorProcedure } from "../../trpc";
import { jobIdInput } from "./schemas";

export const retryFailedJobProcedure = operatorProcedure
  .input(jobIdInput)
  .output(z.object({ jobId: z.uuid(), queue: z.string(), status: z.literal("REQUEUED") }))
  .mutation(({ ctx, input }) =>
    retryFailedJob(
      { db: ctx.deps.database.db, jobs: ctx.deps.jobs },
      { jobId: input.jobId, operator: ctx.operator, requestId: ctx.request.requestId, ip: ctx.request.ip },
    ),
  );
