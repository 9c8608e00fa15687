"use client";

import Link from "next/link";
import type { Transaction } from "../../../src/dashboard/router-types";
import { Amount } from "../../_components/amount";
import { StatusBadge } from "../../_components/status-badge";
import { Empty } from "../../_components/states";
import { Time } from "../../_components/time";
import { useAssets } from "../../_components/use-assets";

export function TransactionsTable({ transactions, empty }: { transactions: Transaction[]; empty: string }) {
  const { byId } = useAssets();
  if (transactions.length === 0) return <Empty>{empty}</Empty>;
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Created</th>
            <th scope="col">Status</th>
            <th scope="col">Amount</th>
            <th scope="col">Destination</th>
            <th scope="col">Network</th>
            <th scope="col">External ID</th>
          </tr>
        </thead>
        <tbody>
          {transactions.map((tx) => {
            const asset = tx.assetId ? byId.get(tx.assetId) : undefined;
            return (
              <tr key={tx.id} data-testid="transaction-row">
                <td>
                  <Link href={`/transactions/${tx.id}`}>
                    <Time at={tx.createdAt} />
                  </Link>
                </td>
                <td>
                  <StatusBadge status={tx.status} />
                  {tx.subStatus && <div className="small muted">{tx.subStatus}</div>}
                </td>
                <td>
                  <Amount raw={tx.amount} decimals={asset?.decimals} symbol={asset?.symbol} />
                </td>
                <td className="mono">{tx.destinationAddress ?? <span className="muted">{tx.type}</span>}</td>
                <td>{tx.networkCode}</td>
                <td>{tx.externalId ?? <span className="muted">—</span>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
