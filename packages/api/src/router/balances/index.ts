import { createRouter } from "../../trpc";
import { readBalanceHistoryProcedure } from "./read-balance-history";
import { summarizeBalancesProcedure } from "./summarize-balances";
import { summarizeDailyFlowsProcedure } from "./summarize-daily-flows";

/** The overview's figures (dashboard only): live balances, daily flows and a wallet's balance history. */
export const balancesRouter = createRouter({
  summary: summarizeBalancesProcedure,
  flows: summarizeDailyFlowsProcedure,
  walletHistory: readBalanceHistoryProcedure,
});
