import { describe, expect, it } from "vitest";
import {
  formatGasPrice,
  formatUnits,
  GAS_PRICE_LABEL,
  gasPricesInWords,
  maxFeeCost,
  multiplyRaw,
  parseGasPrice,
  parseUnits,
} from "./amounts";

describe("amounts with decimals, without floating point", () => {
  it("formats base units with the asset's decimals", () => {
    expect(formatUnits("1500000000000000000", 18)).toBe("1.5");
    expect(formatUnits("1", 18)).toBe("0.000000000000000001");
    expect(formatUnits("0", 18)).toBe("0");
    expect(formatUnits("1000000", 6)).toBe("1");
    expect(formatUnits("123", 0)).toBe("123");
    // Beyond 2^53 and beyond a double's 17 significant digits: exact.
    expect(formatUnits("123456789012345678901234567890", 18)).toBe("123456789012.34567890123456789");
    expect(() => formatUnits("1.5", 18)).toThrow();
    expect(() => formatUnits("-1", 18)).toThrow();
  });

  it("parses what a person types into base units, refusing what the asset cannot hold", () => {
    expect(parseUnits("1.5", 18)).toEqual({ ok: true, raw: "1500000000000000000" });
    expect(parseUnits(" 0.000000000000000001 ", 18)).toEqual({ ok: true, raw: "1" });
    expect(parseUnits(".25", 2)).toEqual({ ok: true, raw: "25" });
    expect(parseUnits("7.", 6)).toEqual({ ok: true, raw: "7000000" });
    expect(parseUnits("007", 0)).toEqual({ ok: true, raw: "7" });
    expect(parseUnits("0.0000001", 6)).toMatchObject({ ok: false, message: expect.stringContaining("at most 6 digits") });
    for (const bad of ["", "1e18", "-1", "1,000", "0x10", "1.2.3", "abc"]) expect(parseUnits(bad, 18).ok, bad).toBe(false);
    expect(parseUnits("9".repeat(79), 0).ok).toBe(false);
  });

  it("round-trips every parsed amount", () => {
    for (const [text, decimals] of [
      ["1.5", 18],
      ["0.000001", 6],
      ["123456789.123456789", 9],
      ["42", 0],
    ] as const) {
      const parsed = parseUnits(text, decimals);
      expect(parsed.ok && formatUnits(parsed.raw, decimals)).toBe(text);
    }
  });

  it("multiplies base units exactly (fee caps)", () => {
    expect(multiplyRaw("21000", "2000000000")).toBe("42000000000000");
    expect(multiplyRaw("340282366920938463463374607431768211455", "2")).toBe("680564733841876926926749214863536422910");
  });
});

describe("fee caps in a readable unit", () => {
  it("shows per-gas prices in Gqwei (10^9 Qwei), exactly", () => {
    expect(GAS_PRICE_LABEL).toBe("Gqwei/gas");
    expect(formatGasPrice("2200000000")).toBe("2.2 Gqwei/gas");
    expect(formatGasPrice("1")).toBe("0.000000001 Gqwei/gas");
    expect(formatGasPrice("60000000000")).toBe("60 Gqwei/gas");
    expect(formatGasPrice("1125000000")).toBe("1.125 Gqwei/gas");
  });

  it("reads what a person types in Gqwei per gas into Qwei per gas, refusing more than 9 fraction digits", () => {
    expect(parseGasPrice("80")).toEqual({ ok: true, raw: "80000000000" });
    expect(parseGasPrice("2.2")).toEqual({ ok: true, raw: "2200000000" });
    expect(parseGasPrice("0.000000001")).toEqual({ ok: true, raw: "1" });
    expect(parseGasPrice("0.0000000001")).toEqual({ ok: false, message: "at most 9 digits after the decimal point (1 Gqwei = 10^9 Qwei)" });
    expect(parseGasPrice("2e9").ok).toBe(false);
  });

  it("words the API's per-gas prices in Gqwei/gas, leaving the rest of the message", () => {
    expect(gasPricesInWords("at most 1000000000000 Qwei per gas (MAX_FEE_PER_GAS_CAP)")).toBe(
      "at most 1000 Gqwei/gas (MAX_FEE_PER_GAS_CAP)",
    );
    expect(gasPricesInWords("between 1 Qwei per gas and 2200000000 Qwei per gas")).toBe("between 0.000000001 Gqwei/gas and 2.2 Gqwei/gas");
    expect(gasPricesInWords("must be a decimal string")).toBe("must be a decimal string");
  });

  it("computes the most the fee can cost: gas limit × max fee per gas, in Qwei, shown in Q", () => {
    const cost = maxFeeCost({ gasLimit: "25200", maxFeePerGas: "2000000000" });
    expect(cost).toBe("50400000000000");
    expect(formatUnits(cost, 18)).toBe("0.0000504");
    // An odd fee cap: exact to the last Qwei, where a float would round.
    expect(formatUnits(maxFeeCost({ gasLimit: "21000", maxFeePerGas: "2000000007" }), 18)).toBe("0.000042000000147");
  });
});
