import { describe, expect, it } from "vitest";
import { bumpFee, replacementFeeCaps } from "./replacement-fee-caps";

const GWEI = 1_000_000_000n;

describe("replacementFeeCaps", () => {
  it("rises 12.5 % over the highest live caps, rounded up, above the node's 10 %", () => {
    expect(bumpFee(8n)).toBe(9n);
    expect(bumpFee(9n)).toBe(11n);
    expect(bumpFee(1n)).toBe(2n);
    expect(bumpFee(3n * GWEI)).toBe(3_375_000_000n);
    const caps = replacementFeeCaps({
      live: [
        { maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI },
        { maxFeePerGas: 4n * GWEI, maxPriorityFeePerGas: GWEI / 2n },
      ],
      market: { maxFeePerGas: 2n * GWEI, maxPriorityFeePerGas: GWEI / 10n },
      requested: {},
    });
    expect(caps).toEqual({ maxFeePerGas: 4_500_000_000n, maxPriorityFeePerGas: 1_125_000_000n });
    expect(caps.maxFeePerGas * 100n).toBeGreaterThanOrEqual(4n * GWEI * 110n);
  });

  it("takes what the chain needs now when it is more, and what the caller asks when it is more still", () => {
    const live = [{ maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI }];
    const market = { maxFeePerGas: 61n * GWEI, maxPriorityFeePerGas: GWEI };
    expect(replacementFeeCaps({ live, market, requested: {} })).toEqual({ maxFeePerGas: 61n * GWEI, maxPriorityFeePerGas: 1_125_000_000n });
    expect(replacementFeeCaps({ live, market, requested: { maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: 5n * GWEI } })).toEqual({
      maxFeePerGas: 100n * GWEI,
      maxPriorityFeePerGas: 5n * GWEI,
    });
    // Asking less than the rule changes nothing: the request is a floor, never a ceiling.
    expect(replacementFeeCaps({ live, market, requested: { maxFeePerGas: 1n } }).maxFeePerGas).toBe(61n * GWEI);
  });

  it("never leaves the tip above the fee cap", () => {
    const caps = replacementFeeCaps({
      live: [{ maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: GWEI }],
      market: { maxFeePerGas: 2n * GWEI, maxPriorityFeePerGas: GWEI },
      requested: { maxPriorityFeePerGas: 10n * GWEI },
    });
    expect(caps).toEqual({ maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: 10n * GWEI });
  });
});
