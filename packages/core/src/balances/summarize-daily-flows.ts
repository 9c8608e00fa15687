import { sumDailyFlows, type DailyFlowRow } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";

export type DailyFlow = DailyFlowRow;

export interface DailyFlows {
  /** The first UTC day counted, `YYYY-MM-DD`; the window runs to now. */
  from: string;
  days: number;
  /** Per day (UTC, by completion) and asset, only days with a move; amounts in base units. */
  flows: DailyFlow[];
}

const DAY_MS = 86_400_000;

/** The first instant of the UTC day `days - 1` days before now: `days` calendar days, today included. */
export function windowStart(now: Date, days: number): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

/**
 * The tenant's outflows (completed OUTBOUND transactions) and inflows (completed deposits) per
 * UTC day and asset over the last `days` days, summed exactly in SQL.
 */
export async function summarizeDailyFlows(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: { tenantId: string; days: number },
): Promise<DailyFlows> {
  const since = windowStart(deps.now(), input.days);
  const flows = await sumDailyFlows(deps.db, { tenantId: input.tenantId, since });
  return { from: since.toISOString().slice(0, 10), days: input.days, flows };
}
