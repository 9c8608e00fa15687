/**
 * Amounts are decimal integer strings of base units (CONTRACT §1); the dashboard shows them with
 * the asset's decimals. All arithmetic is on bigint and strings: a float would round 18-decimal
 * amounts (and anything above 2^53 base units) silently.
 */
const RAW = /^(0|[1-9][0-9]{0,77})$/;

/** `1500000000000000000`, 18 → `1.5`; trailing zeros of the fraction dropped; thousands not grouped. */
export function formatUnits(raw: string, decimals: number): string {
  if (!RAW.test(raw)) throw new Error(`not a base-unit amount: ${raw}`);
  if (decimals === 0) return raw;
  const padded = raw.padStart(decimals + 1, "0");
  const whole = padded.slice(0, padded.length - decimals);
  const fraction = padded.slice(padded.length - decimals).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

export type ParsedAmount = { ok: true; raw: string } | { ok: false; message: string };

/** `1.5`, 18 → `1500000000000000000`; refuses more fraction digits than the asset has, signs, exponents and grouping. */
export function parseUnits(display: string, decimals: number): ParsedAmount {
  const text = display.trim();
  const match = /^([0-9]+)(?:\.([0-9]*))?$/.exec(text) ?? /^()\.([0-9]+)$/.exec(text);
  if (!match) return { ok: false, message: "enter a number such as 1.5 (digits and one decimal point)" };
  const whole = match[1] || "0";
  const fraction = match[2] ?? "";
  if (fraction.length > decimals) return { ok: false, message: `at most ${decimals} digits after the decimal point for this asset` };
  const raw = BigInt(whole + fraction.padEnd(decimals, "0")).toString();
  if (!RAW.test(raw)) return { ok: false, message: "too large" };
  return { ok: true, raw };
}

/** Base units of an amount times a price in base units per unit of gas, e.g. the most a transfer can pay in fees. */
export function multiplyRaw(a: string, b: string): string {
  return (BigInt(a) * BigInt(b)).toString();
}

// ------------------------------------------------------------------------------ fees

/**
 * The native asset's base unit (CONTRACT §4: 1 Q = 10^18 Qwei). Fee caps are prices per unit of
 * gas in Qwei; a few billion Qwei per gas is usual, so the dashboard reads and writes them in
 * Gqwei (10^9 Qwei, as gwei is to wei): `2200000000` Qwei/gas is shown `2.2 Gqwei/gas`.
 */
export const BASE_UNIT = "Qwei";
export const GAS_PRICE_UNIT = { name: "Gqwei", decimals: 9, per: "gas" } as const;
/** What a per-gas price is written with: `Gqwei/gas`. */
export const GAS_PRICE_LABEL = `${GAS_PRICE_UNIT.name}/${GAS_PRICE_UNIT.per}`;

/** `2200000000` (Qwei per gas) → `2.2 Gqwei/gas`. */
export function formatGasPrice(raw: string): string {
  return `${formatUnits(raw, GAS_PRICE_UNIT.decimals)} ${GAS_PRICE_LABEL}`;
}

/** What a person types in Gqwei per gas (`2.2`) → Qwei per gas (`2200000000`), exactly; at most 9 fraction digits. */
export function parseGasPrice(display: string): ParsedAmount {
  const parsed = parseUnits(display, GAS_PRICE_UNIT.decimals);
  if (parsed.ok || !/decimal point for this asset/.test(parsed.message)) return parsed;
  const digits = GAS_PRICE_UNIT.decimals;
  return { ok: false, message: `at most ${digits} digits after the decimal point (1 ${GAS_PRICE_UNIT.name} = 10^${digits} ${BASE_UNIT})` };
}

/** The most a transaction can pay in fees, in Qwei: its gas limit × its max fee per gas (CONTRACT §17). */
export function maxFeeCost(fee: { gasLimit: string; maxFeePerGas: string }): string {
  return multiplyRaw(fee.gasLimit, fee.maxFeePerGas);
}

/**
 * An API message with its per-gas prices in the readable unit: every `N Qwei per gas` becomes
 * `X Gqwei/gas` (the speed-up form's cap refusal: "at most 1000000000000 Qwei per gas" reads
 * "at most 1000 Gqwei/gas"); the rest of the message as the API wrote it.
 */
export function gasPricesInWords(message: string): string {
  return message.replace(/\b(0|[1-9][0-9]*) Qwei per gas\b/g, (_, raw: string) => formatGasPrice(raw));
}
