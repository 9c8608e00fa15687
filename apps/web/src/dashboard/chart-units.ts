import { formatUnits } from "./amounts";

/**
 * For a chart's geometry only: an amount in units (decimals applied) as a JavaScript number,
 * which may round. Every figure a person reads — a table, a tooltip — is formatted from the exact
 * base-unit string instead (formatUnits).
 */
export function unitsForGeometry(raw: string, decimals: number): number {
  return Number(formatUnits(raw, decimals));
}
