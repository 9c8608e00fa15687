"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { RouterOutputs } from "../../src/dashboard/router-types";
import { useTRPC } from "../../src/dashboard/trpc";
import { Amount } from "../_components/amount";
import { DataTable } from "../_components/data-table";
import { QueryView } from "../_components/states";
import { Time } from "../_components/time";

type BalanceSummary = RouterOutputs["balances"]["summary"];
type AssetTotal = BalanceSummary["totals"][number];

/** Live balances are read from the chains on every ask; this is how often the overview asks again. */
const SUMMARY_POLL_MS = 15_000;

/** A summed balance, or "Unavailable" when its network could not be read: never a zero that is not one. */
function TotalCell({ total }: { total: AssetTotal }) {
  if (total.balance === null)
    return (
      <span className="badge bad" data-unavailable="true">
        Unavailable
      </span>
    );
  return <Amount raw={total.balance} decimals={total.decimals} symbol={total.symbol} copy={false} />;
}

/**
 * What the organization holds, read live from the chains (tRPC `balances.summary`): per asset in
 * total and per vault, each network at one block. A network that cannot be read is said so.
 */
export function OverviewBalances() {
  const trpc = useTRPC();
  const summary = useQuery({ ...trpc.balances.summary.queryOptions(), refetchInterval: SUMMARY_POLL_MS });
  return (
    <section aria-labelledby="balances-heading" data-testid="overview-balances">
      <h2 id="balances-heading">Balances</h2>
      <QueryView
        query={summary}
        what="balances"
        errorTitle="Could not read the balances"
        empty={(data) => data.totals.length === 0 && "No wallets yet: balances appear once a vault holds a wallet."}
      >
        {(data) => <BalancesView summary={data} />}
      </QueryView>
    </section>
  );
}

function BalancesView({ summary }: { summary: BalanceSummary }) {
  const down = summary.networks.filter((n) => n.status === "UNAVAILABLE");
  const vaultRows = summary.vaults.flatMap((vault) => vault.assets.map((total) => ({ vault, total })));
  return (
    <>
      {down.map((network) => (
        <div key={network.networkCode} className="notice error" role="alert" data-testid="network-unavailable">
          <strong>{network.networkCode} balances unavailable: </strong>
          {network.message} (UNAVAILABLE). Its assets are shown as unavailable, not as zero.
        </div>
      ))}
      {summary.truncated && (
        <p className="notice warning" role="status">
          Only the first balances were read: the organization has more wallet placements than the overview sums.
        </p>
      )}
      <DataTable
        testId="balance-totals"
        caption="Total per asset, across the organization"
        columns={[
          { header: "Asset", rowHeader: true, cell: (t: AssetTotal) => `${t.name} (${t.symbol})` },
          { header: "Network", cell: (t) => t.networkCode },
          { header: "Total", cell: (t) => <TotalCell total={t} />, cellProps: () => ({ "data-testid": "asset-total" }) },
          { header: "Wallets", cell: (t) => t.walletCount },
        ]}
        rows={summary.totals}
        rowKey={(t) => t.assetId}
        rowProps={(t) => ({ "data-asset-id": t.assetId })}
      />
      <DataTable
        testId="balance-vaults"
        caption="Per vault"
        columns={[
          {
            header: "Vault",
            rowHeader: true,
            cell: ({ vault }: (typeof vaultRows)[number]) => <Link href={`/vaults/${vault.vaultId}`}>{vault.name}</Link>,
          },
          { header: "Network", cell: ({ vault }) => vault.networkCode },
          { header: "Asset", cell: ({ total }) => total.symbol },
          { header: "Balance", cell: ({ total }) => <TotalCell total={total} />, cellProps: () => ({ "data-testid": "vault-total" }) },
          { header: "Wallets", cell: ({ total }) => total.walletCount },
        ]}
        rows={vaultRows}
        rowKey={({ vault, total }) => `${vault.vaultId}:${total.assetId}`}
        rowProps={({ vault, total }) => ({ "data-vault-id": vault.vaultId, "data-asset-id": total.assetId })}
      />
      <p className="small muted">
        Read live from the chain{" "}
        {summary.networks
          .filter((n) => n.blockNumber !== null)
          .map((n) => `${n.networkCode} at block ${n.blockNumber}`)
          .join(", ")}
        , <Time at={summary.queriedAt} />; refreshed every {SUMMARY_POLL_MS / 1000} s.
      </p>
    </>
  );
}
