"use client";

import type { ReactElement } from "react";
import { ResponsiveContainer } from "recharts";

/** The margin every dashboard chart draws inside its frame. */
export const CHART_MARGIN = { top: 8, right: 8, bottom: 0, left: 8 };

/**
 * A recharts chart at the page's width and `height` pixels. The drawing is hidden from assistive
 * technology: every chart of the dashboard has a table of its exact figures beside it, which is
 * what a screen reader reads (and the chart's own keyboard layer is off, so nothing hidden takes focus).
 */
export function ChartFrame({ height, children }: { height: number; children: ReactElement }) {
  return (
    <div aria-hidden="true" style={{ width: "100%", height }}>
      <ResponsiveContainer width="100%" height="100%">
        {children}
      </ResponsiveContainer>
    </div>
  );
}
