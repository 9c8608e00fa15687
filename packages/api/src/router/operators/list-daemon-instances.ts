import { listDaemonInstances } from "@qc/core";
import { z } from "zod";
import { operatorProcedure } from "../../trpc";
import { daemonInstance } from "./schemas";

export const listDaemonInstancesProcedure = operatorProcedure
  .input(z.object({}).optional())
  .output(z.object({ instances: z.array(daemonInstance) }))
  .query(async ({ ctx }) => ({ instances: await listDaemonInstances({ db: ctx.deps.database.db, now: ctx.deps.now }) }));
