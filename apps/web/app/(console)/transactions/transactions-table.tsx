"use client";

import Link from "next/link";
import type { Transaction } from "../../../src/dashboard/router-types";
import { AssetAmount } from "../../_components/amount";
import { DataTable, type Column } from "../../_components/data-table";
import { TransactionStatusBadge } from "../../_components/status-badge";
import { Empty } from "../../_components/states";
import { Time } from "../../_components/time";
import { useAssets } from "../../_components/use-assets";
import { DirectionMarker } from "./direction";

export function TransactionsTable({
  transactions,
  empty,
  walletId,
}: {
  transactions: Transaction[];
  empty: string;
  /** On a wallet's page: that wallet, whose own side a row does not repeat. */
  walletId?: string;
}) {
  const { byId } = useAssets();
  if (transactions.length === 0) return <Empty>{empty}</Empty>;
  const columns: Column<Transaction>[] = [
    {
      header: "Created",
      cell: (tx) => (
        <Link href={`/transactions/${tx.id}`}>
          <Time at={tx.createdAt} />
        </Link>
      ),
    },
    {
      header: "Status",
      cell: (tx) => <TransactionStatusBadge status={tx.status} subStatus={tx.subStatus} stacked />,
    },
    { header: "Direction", cell: (tx) => <DirectionMarker direction={tx.direction} /> },
    {
      header: "Amount",
      cell: (tx) => {
        const asset = tx.assetId ? byId.get(tx.assetId) : undefined;
        return (
          <>
            <AssetAmount raw={tx.amount} assetId={tx.assetId} copy={false} />
            {/* A deposit of a token the tenant has no asset for: its contract says what it is. */}
            {!asset && tx.tokenAddress && (
              <div className="small muted" data-testid="row-token-address">
                token <ShortAddress address={tx.tokenAddress} />
              </div>
            )}
          </>
        );
      },
    },
    {
      header: "Counterparty",
      cell: (tx) => <Counterparty tx={tx} walletId={walletId} />,
    },
    { header: "Network", cell: (tx) => tx.networkCode },
    { header: "External ID", cell: (tx) => tx.externalId ?? <span className="muted">—</span> },
  ];
  return (
    <DataTable
      columns={columns}
      rows={transactions}
      rowKey={(tx) => tx.id}
      rowProps={(tx) => ({ "data-testid": "transaction-row", "data-id": tx.id, "data-type": tx.type })}
    />
  );
}

/**
 * Who is on the other side: the sender of a deposit (and the receiving wallet of the tenant's), the
 * destination of what the service sends (with its address-book label), or the type for a
 * deployment, which has no destination.
 */
function Counterparty({ tx, walletId }: { tx: Transaction; walletId: string | undefined }) {
  if (tx.direction === "INBOUND")
    return (
      <span data-testid="counterparty">
        <span className="muted small">from </span>
        <span className="mono">{tx.sourceAddress}</span>
        {tx.destinationWalletId && tx.destinationWalletId !== walletId && (
          <div className="small">
            to your wallet{" "}
            <Link href={`/wallets/${tx.destinationWalletId}`}>
              <ShortAddress address={tx.destinationAddress!} />
            </Link>
          </div>
        )}
      </span>
    );
  if (!tx.destinationAddress)
    return (
      <span className="muted" data-testid="counterparty">
        {tx.type}
      </span>
    );
  return (
    <span data-testid="counterparty">
      <span className="muted small">to </span>
      <span className="mono">{tx.destinationAddress}</span>
      {/* The address book's label for it, when the transfer went to an entry (CONTRACT §16). */}
      {tx.destinationLabel && (
        <div className="small" data-testid="destination-label">
          {tx.destinationLabel}
        </div>
      )}
    </span>
  );
}

/** A long address in a table cell: its start and end, the whole of it on hover and for screen readers. */
function ShortAddress({ address }: { address: string }) {
  return (
    <span className="mono" title={address} aria-label={address} data-address={address}>
      {address.slice(0, 6)}…{address.slice(-4)}
    </span>
  );
}
