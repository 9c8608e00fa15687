"use client";

import Link from "next/link";
import type { Transaction } from "../../../src/dashboard/router-types";
import { SUB_STATUS_HINTS, TRANSACTION_STATUS_HINTS } from "../../../src/dashboard/vocabulary";
import { Amount } from "../../_components/amount";
import { DataTable, type Column } from "../../_components/data-table";
import { StatusBadge } from "../../_components/status-badge";
import { Empty } from "../../_components/states";
import { Time } from "../../_components/time";
import { useAssets } from "../../_components/use-assets";

export function TransactionsTable({ transactions, empty }: { transactions: Transaction[]; empty: string }) {
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
      cell: (tx) => (
        <>
          <span title={TRANSACTION_STATUS_HINTS[tx.status]}>
            <StatusBadge status={tx.status} />
          </span>
          {tx.subStatus && (
            <div className="small muted" title={SUB_STATUS_HINTS[tx.subStatus]}>
              {tx.subStatus}
            </div>
          )}
        </>
      ),
    },
    {
      header: "Amount",
      cell: (tx) => {
        const asset = tx.assetId ? byId.get(tx.assetId) : undefined;
        return <Amount raw={tx.amount} decimals={asset?.decimals} symbol={asset?.symbol} />;
      },
    },
    {
      header: "Destination",
      cell: (tx) =>
        tx.destinationAddress ? (
          <>
            <span className="mono">{tx.destinationAddress}</span>
            {/* The address book's label for it, when the transfer went to an entry (CONTRACT §16). */}
            {tx.destinationLabel && (
              <div className="small" data-testid="destination-label">
                {tx.destinationLabel}
              </div>
            )}
          </>
        ) : (
          <span className="muted">{tx.type}</span>
        ),
    },
    { header: "Network", cell: (tx) => tx.networkCode },
    { header: "External ID", cell: (tx) => tx.externalId ?? <span className="muted">—</span> },
  ];
  return <DataTable columns={columns} rows={transactions} rowKey={(tx) => tx.id} rowProps={() => ({ "data-testid": "transaction-row" })} />;
}
