import type { QueueOverview } from "../../src/dashboard/router-types";

const WIDTH = 180;
const HEIGHT = 36;

/**
 * Jobs per bucket as two lines (created, completed) and failure ticks, in plain SVG: a few dozen
 * points need no chart library. The numbers are in the accessible description.
 */
export function Sparkline({ queue }: { queue: QueueOverview }) {
  const points = queue.series;
  const max = Math.max(1, ...points.map((p) => Math.max(p.created, p.completed, p.failed)));
  const x = (i: number) => (points.length <= 1 ? 0 : (i / (points.length - 1)) * WIDTH);
  const y = (v: number) => HEIGHT - 2 - (v / max) * (HEIGHT - 4);
  const line = (key: "created" | "completed") =>
    points.map((p, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(p[key]).toFixed(1)}`).join(" ");
  const total = (key: "created" | "completed" | "failed") => points.reduce((sum, p) => sum + p[key], 0);
  const summary = `${total("created")} created, ${total("completed")} completed, ${total("failed")} failed in the last ${points.length} minutes; busiest minute ${max} jobs`;
  return (
    <svg
      className="sparkline"
      width={WIDTH}
      height={HEIGHT}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={summary}
      data-testid="queue-chart"
    >
      <title>{summary}</title>
      <line x1="0" x2={WIDTH} y1={HEIGHT - 1} y2={HEIGHT - 1} stroke="currentColor" strokeOpacity="0.2" />
      <path d={line("created")} fill="none" stroke="#5aa2ec" strokeWidth="1.5" />
      <path d={line("completed")} fill="none" stroke="#2f9e5b" strokeWidth="1.5" />
      {points.map((p, i) =>
        p.failed > 0 ? <rect key={i} x={x(i) - 1} y={y(p.failed)} width="2" height={HEIGHT - 1 - y(p.failed)} fill="#d64545" /> : null,
      )}
    </svg>
  );
}
