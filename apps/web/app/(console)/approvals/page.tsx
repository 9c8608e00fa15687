"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { RouterOutputs } from "../../../src/dashboard/router-types";
import { useTRPC } from "../../../src/dashboard/trpc";
import { AssetAmount } from "../../_components/amount";
import { DataTable, type Column } from "../../_components/data-table";
import { Empty, QueryView } from "../../_components/states";
import { Time } from "../../_components/time";
import { useAssets } from "../../_components/use-assets";
import { useApproverGroups } from "../_approvals/use-approver-groups";
import { useMemberNames } from "../_approvals/use-member-names";
import { approvedPerGroup } from "../_approvals/approved-per-group";
import { InitiatedBy } from "../_approvals/initiated-by";

type PendingApproval = RouterOutputs["approvals"]["pending"]["transactions"][number];

/**
 * `GET /v1/approvals?status=PENDING` for the signed-in member (CONTRACT §15): the transfers that
 * await a group they are in and on which they have not decided. Approving happens in the signer,
 * which holds the member's approval key; each row links to the transfer, where they may reject.
 */
export default function ApprovalsPage() {
  const trpc = useTRPC();
  const pending = useQuery({ ...trpc.approvals.pending.queryOptions({ status: "PENDING" }), refetchInterval: 5_000 });
  return (
    <>
      <h1>Approvals</h1>
      <p>
        Transfers waiting for your decision: a policy rule requires an approver group you are in, and you have not decided yet. Approve each
        in the signer, which holds your approval key and shows what you sign: <code>signer approvals</code> lists them,{" "}
        <code>signer approve &lt;transactionId&gt;</code> approves one. You may reject a transfer from its page, with a reason.
      </p>
      <QueryView query={pending} what="your pending approvals" errorTitle="Could not load your pending approvals">
        {(data) => <PendingTable transactions={data.transactions} />}
      </QueryView>
    </>
  );
}

function PendingTable({ transactions }: { transactions: PendingApproval[] }) {
  const { byId } = useAssets();
  const { nameOf: memberName } = useMemberNames();
  const { nameOf: groupName } = useApproverGroups();
  if (transactions.length === 0) return <Empty>Nothing awaits your approval.</Empty>;
  const columns: Column<PendingApproval>[] = [
    {
      header: "Transfer",
      rowHeader: true,
      cell: (tx) => (
        <Link href={`/transactions/${tx.id}`} className="mono small" title={tx.id} aria-label={`Transfer ${tx.id}`}>
          {tx.id.slice(0, 8)}…
        </Link>
      ),
    },
    {
      header: "Amount",
      cell: (tx) => <AssetAmount raw={tx.amount} assetId={tx.assetId} copy={false} />,
    },
    { header: "Asset", cell: (tx) => (tx.assetId ? (byId.get(tx.assetId)?.symbol ?? tx.assetId) : "— (deployment)") },
    { header: "Destination", cell: (tx) => <span className="mono small">{tx.destinationAddress ?? "—"}</span> },
    { header: "Initiated by", cell: (tx) => <InitiatedBy initiatedBy={tx.initiatedBy} memberName={memberName} /> },
    {
      header: "Needs",
      cell: (tx) => {
        const approved = tx.approvals ? approvedPerGroup(tx.approvals) : new Map<string, number>();
        return (
          <>
            {tx.approvals?.required.map((r) => (
              <div key={r.groupId} className="small">
                {groupName(r.groupId)}: {approved.get(r.groupId) ?? 0} of {r.quorum}
              </div>
            ))}
          </>
        );
      },
    },
    {
      header: "Last change",
      cell: (tx) => <Time at={tx.updatedAt} />,
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={transactions}
      rowKey={(tx) => tx.id}
      rowProps={(tx) => ({ "data-testid": "pending-approval-row", "data-transaction-id": tx.id })}
    />
  );
}
