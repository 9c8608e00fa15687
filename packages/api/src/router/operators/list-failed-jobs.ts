import { listFailedJobs } from "@qc/core";
import { z } from "zod";
import { operatorProcedure } from "../../trpc";
import { failedJob } from "./schemas";

export const listFailedJobsProcedure = operatorProcedure
  .input(z.object({ limit: z.number().int().min(1).max(200).default(100) }).optional())
  .output(z.object({ jobs: z.array(failedJob) }))
  .query(async ({ ctx, input }) => ({ jobs: await listFailedJobs({ db: ctx.deps.database.db }, { limit: input?.limit ?? 100 }) }));
