"use client";

import { useQuery } from "@tanstack/react-query";
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import { formatUnits } from "../../src/dashboard/amounts";
import { unitsForGeometry } from "../../src/dashboard/chart-units";
import type { RouterOutputs } from "../../src/dashboard/router-types";
import { useTRPC } from "../../src/dashboard/trpc";
import { Amount } from "../_components/amount";
import { CHART_MARGIN, ChartFrame } from "../_components/chart-frame";
import { DataTable } from "../_components/data-table";
import { QueryView } from "../_components/states";

type DailyFlows = RouterOutputs["balances"]["flows"];
type DailyFlow = DailyFlows["flows"][number];

const DAY_MS = 86_400_000;
const WINDOW_DAYS = 30;
const OUTFLOW_COLOR = "#b42318";
const INFLOW_COLOR = "#067647";

/** The window's days, oldest first, `YYYY-MM-DD` (UTC). */
function windowDays(from: string, days: number): string[] {
  const start = Date.parse(`${from}T00:00:00.000Z`);
  return Array.from({ length: days }, (_, i) => new Date(start + i * DAY_MS).toISOString().slice(0, 10));
}

/**
 * The last 30 days' completed outflows and deposits per asset and UTC day (tRPC `balances.flows`):
 * a bar chart per asset, drawn on the client, and the exact amounts in a table beside it.
 */
export function OverviewFlows() {
  const trpc = useTRPC();
  const flows = useQuery({ ...trpc.balances.flows.queryOptions({ days: WINDOW_DAYS }), refetchInterval: 30_000 });
  return (
    <section aria-labelledby="flows-heading" data-testid="overview-flows">
      <h2 id="flows-heading">Outflows and inflows, last {WINDOW_DAYS} days</h2>
      <p className="small muted">
        Per UTC day of completion: transfers sent (outflows) and deposits received (inflows), fees not included.
      </p>
      <QueryView
        query={flows}
        what="flows"
        errorTitle="Could not read the flows"
        empty={(data) => data.flows.length === 0 && `Nothing moved in the last ${WINDOW_DAYS} days.`}
      >
        {(data) => <FlowsView data={data} />}
      </QueryView>
    </section>
  );
}

function FlowsView({ data }: { data: DailyFlows }) {
  const days = windowDays(data.from, data.days);
  const assets = [...new Map(data.flows.map((f) => [f.assetId, f])).values()];
  const newestFirst = [...data.flows].sort((a, b) => b.day.localeCompare(a.day) || a.symbol.localeCompare(b.symbol));
  return (
    <>
      {assets.map((asset) => (
        <AssetFlowChart key={asset.assetId} asset={asset} days={days} flows={data.flows.filter((f) => f.assetId === asset.assetId)} />
      ))}
      <DataTable
        testId="flows-table"
        caption="Exact amounts per day"
        columns={[
          { header: "Day (UTC)", rowHeader: true, cell: (f: DailyFlow) => f.day },
          { header: "Asset", cell: (f) => `${f.symbol} (${f.networkCode})` },
          {
            header: "Outflow",
            cell: (f) => <Amount raw={f.outflow} decimals={f.decimals} symbol={f.symbol} copy={false} />,
            cellProps: () => ({ "data-testid": "flow-outflow" }),
          },
          {
            header: "Inflow",
            cell: (f) => <Amount raw={f.inflow} decimals={f.decimals} symbol={f.symbol} copy={false} />,
            cellProps: () => ({ "data-testid": "flow-inflow" }),
          },
        ]}
        rows={newestFirst}
        rowKey={(f) => `${f.day}:${f.assetId}`}
        rowProps={(f) => ({ "data-testid": "flow-row", "data-day": f.day, "data-asset-id": f.assetId })}
        legend={
          <p className="small muted">
            <span aria-hidden="true" style={{ color: OUTFLOW_COLOR }}>
              ■
            </span>{" "}
            Outflow{" "}
            <span aria-hidden="true" style={{ color: INFLOW_COLOR }}>
              ■
            </span>{" "}
            Inflow — the chart draws these amounts; hover an amount for its base units.
          </p>
        }
      />
    </>
  );
}

function AssetFlowChart({ asset, days, flows }: { asset: DailyFlow; days: string[]; flows: DailyFlow[] }) {
  const byDay = new Map(flows.map((f) => [f.day, f]));
  const points = days.map((day) => {
    const f = byDay.get(day);
    return {
      day: day.slice(5),
      outflow: f ? unitsForGeometry(f.outflow, asset.decimals) : 0,
      inflow: f ? unitsForGeometry(f.inflow, asset.decimals) : 0,
      exact: f ? { outflow: formatUnits(f.outflow, asset.decimals), inflow: formatUnits(f.inflow, asset.decimals) } : null,
    };
  });
  return (
    <figure style={{ margin: "0 0 1rem" }} data-testid="flow-chart" data-asset-id={asset.assetId}>
      <figcaption className="small">
        {asset.symbol} on {asset.networkCode} (the table below has the exact amounts)
      </figcaption>
      <ChartFrame height={220}>
        <BarChart data={points} accessibilityLayer={false} margin={CHART_MARGIN}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" fontSize={11} interval="preserveStartEnd" />
          <YAxis fontSize={11} width={64} />
          <Tooltip
            formatter={(_value, name, item) => {
              const exact = (item.payload as (typeof points)[number]).exact;
              const key = name === "Outflow" ? "outflow" : "inflow";
              return [`${exact ? exact[key] : "0"} ${asset.symbol}`, name];
            }}
          />
          <Legend />
          <Bar dataKey="outflow" name="Outflow" fill={OUTFLOW_COLOR} isAnimationActive={false} />
          <Bar dataKey="inflow" name="Inflow" fill={INFLOW_COLOR} isAnimationActive={false} />
        </BarChart>
      </ChartFrame>
    </figure>
  );
}
