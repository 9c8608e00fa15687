import { describe, expect, it } from "vitest";
import { createFeeRound } from "./quote-transfer-fees";

const fees = (maxFeePerGas: bigint) => ({ maxFeePerGas, maxPriorityFeePerGas: 1n });

describe("createFeeRound", () => {
  it("asks the node once per network while the quote is younger than maxAgeMs, again after", async () => {
    const round = createFeeRound(40);
    let asked = 0;
    const quote = () => Promise.resolve(fees(BigInt(++asked)));
    expect(await round.fees("QUANTUM_SANDBOX", quote)).toEqual(fees(1n));
    expect(await round.fees("QUANTUM_SANDBOX", quote)).toEqual(fees(1n));
    expect(await round.fees("QUANTUM_MAINNET", quote)).toEqual(fees(2n));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await round.fees("QUANTUM_SANDBOX", quote)).toEqual(fees(3n));
    expect(asked).toBe(3);
  });

  it("does not share a failed quote: the next transfer asks again", async () => {
    const round = createFeeRound();
    const down = new Error("node unreachable");
    await expect(round.fees("QUANTUM_SANDBOX", () => Promise.reject(down))).rejects.toBe(down);
    expect(await round.fees("QUANTUM_SANDBOX", () => Promise.resolve(fees(7n)))).toEqual(fees(7n));
  });
});
