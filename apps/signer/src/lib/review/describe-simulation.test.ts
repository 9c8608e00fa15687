import { describe, expect, it } from "vitest";
import type { Asset } from "../service/signer-api";
import { describeSimulation } from "./describe-simulation";

const SOURCE = "0x00000000000000000000000000000000000050c1";
const DESTINATION = "0x000000000000000000000000000000000000d357";
const ASSETS: Asset[] = [
  { id: "native-id", networkCode: "QUANTUM_SANDBOX", kind: "NATIVE", symbol: "Q", decimals: 18, contractAddress: null },
  { id: "token-id", networkCode: "QUANTUM_SANDBOX", kind: "TOKEN", symbol: "QUSD", decimals: 6, contractAddress: "0x" + "7".repeat(40) },
];
const simulation = (fields: Record<string, unknown>) => ({
  status: "SUCCESS",
  revertReason: null,
  gasUsed: "51000",
  balanceChanges: [],
  blockNumber: "12",
  simulatedAt: "2026-11-28T10:00:00.000Z",
  ...fields,
});

describe("describeSimulation: the balance changes review and approve print (CONTRACT §20)", () => {
  it("prints each change signed, with the asset's decimals and its base units", () => {
    const lines = describeSimulation(
      simulation({
        balanceChanges: [
          { address: SOURCE, assetId: "native-id", delta: "-1071000000000000" },
          { address: SOURCE, assetId: "token-id", delta: "-1500000" },
          { address: DESTINATION, assetId: "token-id", delta: "1500000" },
          { address: DESTINATION, assetId: "unlisted-id", delta: "7" },
        ],
      }),
      ASSETS,
    );
    expect(lines).toEqual([
      "Simulation    SUCCESS at block 12, gas used 51000 (as the service simulated it; the source's native change includes the fee)",
      `  ${SOURCE}  -0.001071 Q (-1071000000000000 base units)`,
      `  ${SOURCE}  -1.5 QUSD (-1500000 base units)`,
      `  ${DESTINATION}  +1.5 QUSD (+1500000 base units)`,
      `  ${DESTINATION}  +7 base units of asset unlisted-id`,
    ]);
  });

  it("names a revert and its reason", () => {
    const lines = describeSimulation(
      simulation({
        status: "REVERT",
        revertReason: "ERC20InsufficientBalance(0x00, 10, 11)",
        balanceChanges: [{ address: SOURCE, assetId: "native-id", delta: "-5" }],
      }),
      ASSETS,
    );
    expect(lines[0]).toBe(
      "Simulation    REVERT: ERC20InsufficientBalance(0x00, 10, 11) at block 12, gas used 51000 (as the service simulated it; the source's native change includes the fee)",
    );
    expect(lines[1]).toBe(`  ${SOURCE}  -0.000000000000000005 Q (-5 base units)`);
  });

  it("says plainly when there is no simulation: UNSUPPORTED, none, or unreadable", () => {
    expect(
      describeSimulation(
        simulation({ status: "UNSUPPORTED", gasUsed: null, blockNumber: null, reason: "the node does not support eth_simulateV1" }),
        ASSETS,
      ),
    ).toEqual([
      "Simulation    UNSUPPORTED, no balance changes to show (the network's node could not simulate it: the node does not support eth_simulateV1)",
    ]);
    expect(describeSimulation(null, ASSETS)).toEqual(["Simulation    none: the service made no simulation of this transaction"]);
    expect(describeSimulation(simulation({ balanceChanges: [{ address: SOURCE, assetId: "native-id", delta: "1e18" }] }), ASSETS)).toEqual([
      "Simulation    unreadable: the service sent a simulation this signer cannot read; none is shown",
    ]);
  });
});
