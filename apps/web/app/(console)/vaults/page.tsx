"use client";

import type { VaultStatus } from "@qc/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { NetworkCode, Vault } from "../../../src/dashboard/router-types";
import { useTRPC } from "../../../src/dashboard/trpc";
import { NETWORKS, NETWORK_NAMES } from "../../../src/dashboard/vocabulary";
import { DataTable, type Column } from "../../_components/data-table";
import { FormError, SelectField, TextField } from "../../_components/field";
import { formFailure } from "../../_components/form-failure";
import { MetadataEditor, toMetadata, type MetadataRow } from "../../_components/metadata-editor";
import { Pager, usePager } from "../../_components/pager";
import { QueryView } from "../../_components/states";
import { StatusBadge } from "../../_components/status-badge";
import { Time } from "../../_components/time";
import { useSignedInMember } from "../../_components/use-signed-in-member";

const COLUMNS: Column<Vault>[] = [
  { header: "Name", cell: (vault) => <Link href={`/vaults/${vault.id}`}>{vault.name}</Link> },
  { header: "Network", cell: (vault) => vault.networkCode },
  { header: "Status", cell: (vault) => <StatusBadge status={vault.status} /> },
  { header: "Created", cell: (vault) => <Time at={vault.createdAt} /> },
];

export default function VaultsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const pager = usePager();
  const { can } = useSignedInMember();
  const [networkFilter, setNetworkFilter] = useState<NetworkCode | "">("");
  const [statusFilter, setStatusFilter] = useState<VaultStatus | "">("");
  const list = useQuery(
    trpc.vaults.list.queryOptions({
      limit: 25,
      cursor: pager.cursor,
      networkCode: networkFilter || undefined,
      status: statusFilter || undefined,
    }),
  );

  const [name, setName] = useState("");
  const [networkCode, setNetworkCode] = useState<NetworkCode>("QUANTUM_SANDBOX");
  const [metadata, setMetadata] = useState<MetadataRow[]>([]);
  const create = useMutation(
    trpc.vaults.create.mutationOptions({
      onSuccess: (vault) => {
        void queryClient.invalidateQueries({ queryKey: trpc.vaults.list.queryKey() });
        router.push(`/vaults/${vault.id}`);
      },
    }),
  );
  const failure = formFailure(create.error, ["name", "networkCode", "metadata"]);

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ name, networkCode, metadata: toMetadata(metadata) });
  }

  return (
    <>
      <h1>Vaults</h1>
      <div className="row">
        <SelectField
          label="Network"
          value={networkFilter}
          onChange={(e) => {
            setNetworkFilter(e.target.value as NetworkCode | "");
            pager.reset();
          }}
        >
          <option value="">All networks</option>
          {NETWORKS.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Status"
          value={statusFilter}
          onChange={(e) => {
            setStatusFilter(e.target.value as VaultStatus | "");
            pager.reset();
          }}
        >
          <option value="">Any status</option>
          <option value="ACTIVE">ACTIVE</option>
          <option value="ARCHIVED">ARCHIVED</option>
        </SelectField>
      </div>
      <QueryView
        query={list}
        what="vaults"
        errorTitle="Could not load vaults"
        empty={(data) =>
          data.vaults.length === 0 &&
          (networkFilter || statusFilter
            ? "No vault matches these filters."
            : can("transact")
              ? "No vaults yet. Create the first one below."
              : "No vaults yet.")
        }
      >
        {(data) => (
          <>
            <DataTable
              columns={COLUMNS}
              rows={data.vaults}
              rowKey={(vault) => vault.id}
              rowProps={() => ({ "data-testid": "vault-row" })}
            />
            <Pager pager={pager} page={data.page} />
          </>
        )}
      </QueryView>
      {can("transact") && (
        <section className="panel" aria-labelledby="create-vault-heading">
          <h2 id="create-vault-heading">Create a vault</h2>
          <form onSubmit={submit} noValidate>
            <TextField
              label="Vault name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              maxLength={200}
              error={failure.field("name")}
            />
            <SelectField
              label="Network"
              value={networkCode}
              onChange={(e) => setNetworkCode(e.target.value as NetworkCode)}
              error={failure.field("networkCode")}
              hint="A vault lives on one network; its wallets' home network."
            >
              {NETWORKS.map((n) => (
                <option key={n} value={n}>
                  {NETWORK_NAMES[n]}
                </option>
              ))}
            </SelectField>
            <MetadataEditor rows={metadata} onChange={setMetadata} error={failure.field("metadata")} />
            <FormError message={failure.form} />
            <button type="submit" disabled={create.isPending}>
              Create vault
            </button>
          </form>
        </section>
      )}
    </>
  );
}
