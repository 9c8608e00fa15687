import { summarizeDailyFlows } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { dailyFlows } from "./schemas";

/**
 * Dashboard only (tRPC `balances.flows`; no /v1 route): completed outflows and deposits per UTC
 * day and asset over the last `days` days (default 30).
 */
export const summarizeDailyFlowsProcedure = authedProcedure
  .meta({ scope: "read", action: "read" })
  .input(z.object({ days: z.number().int().min(1).max(90).default(30) }).optional())
  .output(dailyFlows)
  .query(({ ctx, input }) => summarizeDailyFlows(ctx.deps, { tenantId: ctx.auth.tenantId, days: input?.days ?? 30 }));
