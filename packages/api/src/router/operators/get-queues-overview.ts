import { readQueuesOverview } from "@qc/core";
import { z } from "zod";
import { timestamp } from "../../schemas/common";
import { operatorProcedure } from "../../trpc";
import { queueOverview } from "./schemas";

export const getQueuesOverviewProcedure = operatorProcedure
  .input(
    z
      .object({
        windowMinutes: z
          .number()
          .int()
          .min(5)
          .max(24 * 60)
          .default(60),
      })
      .optional(),
  )
  .output(
    z.object({ generatedAt: timestamp, windowMinutes: z.number().int(), bucketSeconds: z.number().int(), queues: z.array(queueOverview) }),
  )
  .query(({ ctx, input }) => {
    const windowMinutes = input?.windowMinutes ?? 60;
    // About 60 points whatever the window: enough for a trend, small enough to poll.
    return readQueuesOverview(
      { db: ctx.deps.database.db, now: ctx.deps.now },
      { windowMinutes, bucketSeconds: Math.max(60, Math.round((windowMinutes * 60) / 60)) },
    );
  });
