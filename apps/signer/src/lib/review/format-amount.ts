import { formatUnits } from "viem";

/**
 * `1.5 QUSD (1500000 base units)`: the decimal value with the asset's decimals applied by
 * string arithmetic (never floating point), and the exact integer the transaction carries.
 */
export function formatAmount(baseUnits: bigint, decimals: number, symbol: string): string {
  return `${formatUnits(baseUnits, decimals)} ${symbol} (${baseUnits} base units)`;
}

/** A per-gas fee, in Qwei (the base unit the transaction carries). */
export function formatQwei(qwei: bigint): string {
  return `${qwei} Qwei`;
}

/** An amount of the native asset, from Qwei. */
export function formatQ(qwei: bigint): string {
  return `${formatUnits(qwei, 18)} Q`;
}
