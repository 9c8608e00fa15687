"use client";

import { useQuery } from "@tanstack/react-query";
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { formatUnits } from "../../../../src/dashboard/amounts";
import { unitsForGeometry } from "../../../../src/dashboard/chart-units";
import type { RouterOutputs } from "../../../../src/dashboard/router-types";
import { useTRPC } from "../../../../src/dashboard/trpc";
import { Amount } from "../../../_components/amount";
import { CHART_MARGIN, ChartFrame } from "../../../_components/chart-frame";
import { DataTable } from "../../../_components/data-table";
import { QueryView } from "../../../_components/states";

type BalanceHistory = RouterOutputs["balances"]["walletHistory"];
type HistoryDay = BalanceHistory["days"][number];

const HISTORY_DAYS = 30;
const LINE_COLOR = "#1d4ed8";

/**
 * A wallet's end-of-day balance of its home network's native asset over the last 30 UTC days
 * (tRPC `balances.walletHistory`, read from the chain at past blocks): a line drawn on the
 * client, and the days on which it changed in a table with the exact amounts.
 */
export function BalanceHistorySection({ walletId }: { walletId: string }) {
  const trpc = useTRPC();
  const history = useQuery({ ...trpc.balances.walletHistory.queryOptions({ walletId, days: HISTORY_DAYS }), refetchInterval: 30_000 });
  return (
    <section aria-labelledby="balance-history-heading" data-testid="balance-history">
      <h2 id="balance-history-heading">Balance history, last {HISTORY_DAYS} days</h2>
      <QueryView query={history} what="the balance history" errorTitle="Could not read the balance history">
        {(data) => <HistoryView history={data} />}
      </QueryView>
    </section>
  );
}

function HistoryView({ history }: { history: BalanceHistory }) {
  const points = history.days.map((d) => ({
    day: d.day.slice(5),
    balance: unitsForGeometry(d.balance, history.decimals),
    exact: formatUnits(d.balance, history.decimals),
  }));
  // The first day, every day the balance changed, and today: what a reader needs of the 30.
  const changes = history.days.filter((d, i, all) => i === 0 || i === all.length - 1 || d.balance !== all[i - 1]!.balance);
  return (
    <>
      <p className="small muted">
        {history.symbol} on {history.networkCode}, at the end of each UTC day (today: now), fees included: read from the chain at the last
        block of each day&apos;s completed transactions.
      </p>
      <ChartFrame height={200}>
        <LineChart data={points} accessibilityLayer={false} margin={CHART_MARGIN}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" fontSize={11} interval="preserveStartEnd" />
          <YAxis fontSize={11} width={64} />
          <Tooltip
            formatter={(_value, _name, item) => [`${(item.payload as (typeof points)[number]).exact} ${history.symbol}`, "Balance"]}
          />
          <Line type="stepAfter" dataKey="balance" stroke={LINE_COLOR} dot={false} isAnimationActive={false} />
        </LineChart>
      </ChartFrame>
      <DataTable
        testId="balance-history-table"
        caption="End-of-day balance: the first day, each change, and today"
        columns={[
          { header: "Day (UTC)", rowHeader: true, cell: (d: HistoryDay) => d.day },
          {
            header: "Balance",
            cell: (d) => <Amount raw={d.balance} decimals={history.decimals} symbol={history.symbol} copy={false} />,
            cellProps: () => ({ "data-testid": "history-balance" }),
          },
          { header: "Block", cell: (d) => d.blockNumber },
        ]}
        rows={changes}
        rowKey={(d) => d.day}
        rowProps={(d) => ({ "data-testid": "history-row", "data-day": d.day })}
      />
    </>
  );
}
