"use client";

import type { Transaction } from "../../../../src/dashboard/router-types";
import { AssetAmount } from "../../../_components/amount";
import { DataTable } from "../../../_components/data-table";
import { StatusBadge } from "../../../_components/status-badge";
import { Time } from "../../../_components/time";

type Simulation = NonNullable<Transaction["simulation"]>;
type BalanceChange = Simulation["balanceChanges"][number];

/**
 * CONTRACT §20 on the transaction page: what the node's `eth_simulateV1` said the transaction would
 * do when it entered PENDING_SIGNATURE or AWAITING_APPROVAL — SUCCESS or REVERT with its reason, the
 * gas used, and each balance it changes (signed, with the asset's decimals; the source's native
 * change includes the fee). UNSUPPORTED: one line saying no simulation could be made, and why.
 */
export function SimulationSection({ simulation }: { simulation: Simulation }) {
  return (
    <section className="panel" aria-labelledby="simulation-heading" data-testid="simulation-section">
      <h2 id="simulation-heading">Simulation</h2>
      {simulation.status === "UNSUPPORTED" ? (
        <p className="muted" data-testid="simulation-unsupported">
          No simulation: {simulation.reason ?? "the network's node could not simulate it"}. Check the balance changes yourself before
          signing.
        </p>
      ) : (
        <>
          <p data-testid="simulation-outcome">
            <StatusBadge status={simulation.status === "SUCCESS" ? "ALLOW" : "BLOCK"}>{simulation.status}</StatusBadge>
            {simulation.revertReason && <span data-testid="simulation-revert-reason"> · {simulation.revertReason}</span>}
            <span className="muted small">
              {" "}
              · block {simulation.blockNumber} · gas used {simulation.gasUsed} · simulated <Time at={simulation.simulatedAt} />
            </span>
          </p>
          <DataTable<BalanceChange>
            rows={simulation.balanceChanges}
            rowKey={(change) => `${change.address}:${change.assetId}`}
            caption="Balance changes (the source's native change includes the fee)"
            testId="simulation-balance-changes"
            emptyRow="no balance changes"
            columns={[
              { header: "Address", cell: (change) => <span className="mono">{change.address}</span>, rowHeader: true },
              { header: "Change", cell: (change) => <SignedAmount delta={change.delta} assetId={change.assetId} /> },
            ]}
          />
        </>
      )}
    </section>
  );
}

/** A signed change: `-` or `+`, then the magnitude with the asset's decimals (raw base units for an asset not listed). */
function SignedAmount({ delta, assetId }: { delta: string; assetId: string }) {
  const negative = delta.startsWith("-");
  const magnitude = negative ? delta.slice(1) : delta;
  return (
    <span data-delta={delta}>
      {negative ? "−" : "+"}
      <AssetAmount raw={magnitude} assetId={assetId} copy={false} />
    </span>
  );
}
