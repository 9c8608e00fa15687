"use client";

import { useState } from "react";
import { CSV_MAX_ROWS, CSV_PAGE_SIZE, readAllPages, TooManyRowsError, transactionsCsv } from "../../../src/dashboard/transactions-csv";
import { useTRPCClient } from "../../../src/dashboard/trpc";
import { ErrorNotice } from "../../_components/states";
import { useAssets } from "../../_components/use-assets";
import type { TransactionsListFilters } from "../../../src/dashboard/transactions-list-filters";

/**
 * "Export CSV": every transaction matching the list's filters (not only the page shown), read
 * page by page through the same procedure as the table and saved as one file. Above CSV_MAX_ROWS
 * nothing is saved and the person is asked to narrow the filters (docs/dashboard.md).
 */
export function ExportCsvButton({ filters }: { filters: TransactionsListFilters }) {
  const client = useTRPCClient();
  // The assets' symbols and decimals: the button waits for them, or amounts would be left empty.
  const { assets, query: assetsQuery } = useAssets();
  const [state, setState] = useState<{ busy: boolean; error: unknown; done: number | null }>({ busy: false, error: null, done: null });

  async function exportCsv() {
    setState({ busy: true, error: null, done: null });
    try {
      const transactions = await readAllPages(async (cursor) => {
        const { transactions: items, page } = await client.transactions.list.query({ ...filters, limit: CSV_PAGE_SIZE, cursor });
        return { items, page };
      }, CSV_MAX_ROWS);
      const blob = new Blob([transactionsCsv(transactions, assets)], { type: "text/csv;charset=utf-8;header=present" });
      const url = URL.createObjectURL(blob);
      const link = document.createElement("a");
      link.href = url;
      link.download = `transactions-${new Date().toISOString().slice(0, 19).replaceAll(":", "")}Z.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      // The download has its own copy by now; the browser may free the blob.
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setState({ busy: false, error: null, done: transactions.length });
    } catch (error) {
      setState({ busy: false, error, done: null });
    }
  }

  return (
    <div className="actions">
      <button type="button" className="secondary" onClick={() => void exportCsv()} disabled={state.busy || assetsQuery.data === undefined}>
        {state.busy ? "Exporting…" : "Export CSV"}
      </button>
      <span className="muted small" role="status" aria-live="polite">
        {state.done !== null && `Exported ${state.done} transaction${state.done === 1 ? "" : "s"}.`}
      </span>
      {state.error instanceof TooManyRowsError ? (
        <div className="notice error" role="alert" data-testid="export-too-many">
          {state.error.message}
        </div>
      ) : (
        <ErrorNotice error={state.error ?? assetsQuery.error} title="Could not export" />
      )}
    </div>
  );
}
