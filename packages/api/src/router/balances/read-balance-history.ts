import { readBalanceHistory } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { walletIdParam } from "../wallets/schemas";
import { balanceHistory } from "./schemas";

/**
 * Dashboard only (tRPC `balances.walletHistory`; no /v1 route): a wallet's end-of-day balance of
 * its home network's native asset over the last `days` days (default 30), read at past blocks.
 */
export const readBalanceHistoryProcedure = authedProcedure
  .meta({ scope: "read", action: "read" })
  .input(z.object({ walletId: walletIdParam, days: z.number().int().min(1).max(90).default(30) }))
  .output(balanceHistory)
  .query(({ ctx, input }) => readBalanceHistory(ctx.deps, { tenantId: ctx.auth.tenantId, walletId: input.walletId, days: input.days }));
