import { formatUnits } from "../../src/dashboard/amounts";

/** An amount with the asset's decimals applied; the raw base units on hover and for screen readers. */
export function Amount({ raw, decimals, symbol }: { raw: string; decimals: number | undefined; symbol?: string | undefined }) {
  if (decimals === undefined) return <span title={`${raw} base units`}>{raw} base units</span>;
  return (
    <span className="amount" title={`${raw} base units`} data-raw={raw}>
      {formatUnits(raw, decimals)}
      {symbol ? ` ${symbol}` : ""}
    </span>
  );
}
