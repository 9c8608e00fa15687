import { summarizeBalances } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { balanceSummary } from "./schemas";

/**
 * Dashboard only (tRPC `balances.summary`; no /v1 route): the organization's live balances per
 * asset and per vault, each network read at one block; a network that cannot be read is
 * UNAVAILABLE with null sums.
 */
export const summarizeBalancesProcedure = authedProcedure
  .meta({ scope: "read", action: "read" })
  .input(z.object({}).optional())
  .output(balanceSummary)
  .query(({ ctx }) => summarizeBalances(ctx.deps, { tenantId: ctx.auth.tenantId }));
