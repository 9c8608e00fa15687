"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { TransactionType } from "@qc/domain";
import { Suspense, useEffect, useState } from "react";
import { useTRPC } from "../../../src/dashboard/trpc";
import { LIST_FILTER_KEYS, toListFilters } from "../../../src/dashboard/transactions-list-filters";
import { STATUS_PHRASE_TABLES, TRANSACTION_STATUSES } from "../../../src/dashboard/vocabulary";
import { SelectField, TextField } from "../../_components/field";
import { FilterBar, useUrlFilters } from "../../_components/filter-bar";
import { PAGE_SIZES, Pager, usePager } from "../../_components/pager";
import { Loading, QueryView } from "../../_components/states";
import { useSignedInMember } from "../../_components/use-signed-in-member";
import { TransactionTypeField } from "./direction";
import { ExportCsvButton } from "./export-csv";
import { TransactionsTable } from "./transactions-table";
import { WalletFilterField } from "./wallet-filter";

export default function TransactionsPage() {
  // The filters live in the address (useSearchParams), which Next reads under a Suspense boundary.
  return (
    <Suspense fallback={<Loading what="transactions" />}>
      <TransactionsList />
    </Suspense>
  );
}

function TransactionsList() {
  const trpc = useTRPC();
  const { can } = useSignedInMember();
  const filters = useUrlFilters(LIST_FILTER_KEYS);
  const pager = usePager({ resetKey: filters.key });
  const listFilters = toListFilters(filters.values);
  // The reference is typed, then applied (Enter or Search); the address keeps the applied one.
  const [externalIdInput, setExternalIdInput] = useState(filters.values.externalId);
  useEffect(() => setExternalIdInput(filters.values.externalId), [filters.values.externalId]);
  const list = useQuery({
    ...trpc.transactions.list.queryOptions({ ...listFilters, limit: pager.pageSize, cursor: pager.cursor }),
    refetchInterval: 5_000,
  });

  return (
    <>
      <h1>Transactions</h1>
      {can("transact") && (
        <p>
          <Link href="/transactions/new">New transfer</Link>
        </p>
      )}
      <FilterBar
        label="Filter transactions"
        active={filters.active}
        onClear={filters.clear}
        onSubmit={() => filters.set({ externalId: externalIdInput.trim() })}
      >
        <SelectField label="Status" value={filters.values.status} onChange={(e) => filters.set({ status: e.target.value })}>
          <option value="">Any status</option>
          {TRANSACTION_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_PHRASE_TABLES.transaction[s]} ({s})
            </option>
          ))}
        </SelectField>
        <TransactionTypeField value={filters.values.type as TransactionType | ""} onChange={(type) => filters.set({ type })} />
        <WalletFilterField value={filters.values.walletId} onChange={(walletId) => filters.set({ walletId })} />
        <DayField label="Created from" value={filters.values.from} max={filters.values.to} onChange={(from) => filters.set({ from })} />
        <DayField label="Created to" value={filters.values.to} min={filters.values.from} onChange={(to) => filters.set({ to })} />
        <TextField
          label="External ID"
          value={externalIdInput}
          onChange={(e) => setExternalIdInput(e.target.value)}
          hint="Your reference, exactly as sent."
        />
      </FilterBar>
      <ExportCsvButton filters={listFilters} />
      <QueryView query={list} what="transactions" errorTitle="Could not load transactions">
        {(data) => (
          <>
            <TransactionsTable
              transactions={data.transactions}
              empty={filters.active ? "No transaction matches these filters." : "No transactions yet."}
            />
            <Pager pager={pager} page={data.page} pageSizes={PAGE_SIZES} />
          </>
        )}
      </QueryView>
    </>
  );
}

/** One end of the creation window: a whole day in UTC, included. */
function DayField({
  label,
  value,
  min,
  max,
  onChange,
}: {
  label: string;
  value: string;
  min?: string;
  max?: string;
  onChange: (day: string) => void;
}) {
  return (
    <TextField
      label={label}
      type="date"
      value={value}
      min={min || undefined}
      max={max || undefined}
      onChange={(e) => onChange(e.target.value)}
      hint="UTC, this day included."
    />
  );
}
