import { formatUnits } from "viem";
import type { Asset } from "../service/signer-api";
import { simulationSchema } from "../service/schemas";
import { printableText } from "./printable-text";

/**
 * The lines `review` and `approve` print under the fields (CONTRACT §20): what the service's
 * `eth_simulateV1` said the transaction would do — SUCCESS or REVERT with its reason, then each
 * balance it changes, signed, with the asset's decimals (the source's native change includes the
 * fee). UNSUPPORTED, missing or unreadable: one line saying no simulation is shown, so nobody reads
 * its absence as "no change". These figures come from the service; what is signed is still only the verified fields.
 */
export function describeSimulation(value: unknown, assets: readonly Asset[]): string[] {
  if (value === null || value === undefined) return ["Simulation    none: the service made no simulation of this transaction"];
  const parsed = simulationSchema.safeParse(value);
  if (!parsed.success) return ["Simulation    unreadable: the service sent a simulation this signer cannot read; none is shown"];
  const simulation = parsed.data;
  if (simulation.status === "UNSUPPORTED") {
    const why = simulation.reason ? `: ${printableText(simulation.reason, 200)}` : "";
    return [`Simulation    UNSUPPORTED, no balance changes to show (the network's node could not simulate it${why})`];
  }
  const outcome =
    simulation.status === "REVERT"
      ? `REVERT: ${printableText(simulation.revertReason ?? "no reason given", 200)}`
      : printableText(simulation.status, 32);
  const at = simulation.blockNumber ? ` at block ${simulation.blockNumber}` : "";
  const gas = simulation.gasUsed ? `, gas used ${simulation.gasUsed}` : "";
  const lines = [`Simulation    ${outcome}${at}${gas} (as the service simulated it; the source's native change includes the fee)`];
  if (simulation.balanceChanges.length === 0) lines.push("  no balance changes");
  for (const change of simulation.balanceChanges) {
    const asset = assets.find((a) => a.id === change.assetId);
    const delta = BigInt(change.delta);
    const sign = delta < 0n ? "-" : "+";
    const magnitude = delta < 0n ? -delta : delta;
    const amount = asset
      ? `${sign}${formatUnits(magnitude, asset.decimals)} ${printableText(asset.symbol, 32)} (${sign}${magnitude} base units)`
      : `${sign}${magnitude} base units of asset ${printableText(change.assetId, 64)}`;
    lines.push(`  ${printableText(change.address, 64)}  ${amount}`);
  }
  return lines;
}
