"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { TransactionType } from "@qc/domain";
import { useState, type FormEvent } from "react";
import type { TransactionStatus } from "../../../src/dashboard/router-types";
import { useTRPC } from "../../../src/dashboard/trpc";
import { TRANSACTION_STATUSES } from "../../../src/dashboard/vocabulary";
import { SelectField, TextField } from "../../_components/field";
import { Pager, usePager } from "../../_components/pager";
import { QueryView } from "../../_components/states";
import { useSignedInMember } from "../../_components/use-signed-in-member";
import { TransactionTypeField } from "./direction";
import { TransactionsTable } from "./transactions-table";

export default function TransactionsPage() {
  const trpc = useTRPC();
  const pager = usePager();
  const { can } = useSignedInMember();
  const [status, setStatus] = useState<TransactionStatus | "">("");
  const [type, setType] = useState<TransactionType | "">("");
  const [externalIdInput, setExternalIdInput] = useState("");
  const [externalId, setExternalId] = useState("");
  const list = useQuery({
    ...trpc.transactions.list.queryOptions({
      limit: 25,
      cursor: pager.cursor,
      status: status || undefined,
      type: type || undefined,
      externalId: externalId || undefined,
    }),
    refetchInterval: 5_000,
  });

  function search(event: FormEvent) {
    event.preventDefault();
    setExternalId(externalIdInput.trim());
    pager.reset();
  }

  return (
    <>
      <h1>Transactions</h1>
      {can("transact") && (
        <p>
          <Link href="/transactions/new">New transfer</Link>
        </p>
      )}
      <div className="row">
        <SelectField
          label="Status"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as TransactionStatus | "");
            pager.reset();
          }}
        >
          <option value="">Any status</option>
          {TRANSACTION_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </SelectField>
        <TransactionTypeField
          value={type}
          onChange={(next) => {
            setType(next);
            pager.reset();
          }}
        />
        <form onSubmit={search} className="row" role="search">
          <TextField
            label="External ID"
            value={externalIdInput}
            onChange={(e) => setExternalIdInput(e.target.value)}
            hint="Your reference, exactly as sent."
          />
          <div className="field">
            <button type="submit">Search</button>
          </div>
        </form>
      </div>
      <QueryView query={list} what="transactions" errorTitle="Could not load transactions">
        {(data) => (
          <>
            <TransactionsTable
              transactions={data.transactions}
              empty={status || type || externalId ? "No transaction matches these filters." : "No transactions yet."}
            />
            <Pager pager={pager} page={data.page} />
          </>
        )}
      </QueryView>
    </>
  );
}
