"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useParams } from "next/navigation";
import { useEffect, useState, type FormEvent } from "react";
import type { RouterOutputs, Vault } from "../../../../src/dashboard/router-types";
import { useTRPC } from "../../../../src/dashboard/trpc";
import { DataTable, type Column } from "../../../_components/data-table";
import { FormError, TextField } from "../../../_components/field";
import { formFailure } from "../../../_components/form-failure";
import { MetadataEditor, toMetadata, toRows, type MetadataRow } from "../../../_components/metadata-editor";
import { Pager, usePager } from "../../../_components/pager";
import { ErrorNotice, QueryView } from "../../../_components/states";
import { StatusBadge } from "../../../_components/status-badge";
import { Time } from "../../../_components/time";
import { useSignedInMember } from "../../../_components/use-signed-in-member";

export default function VaultPage() {
  const { id } = useParams<{ id: string }>();
  const trpc = useTRPC();
  const vault = useQuery(trpc.vaults.get.queryOptions({ vaultAccountId: id }));
  return (
    <QueryView query={vault} what="the vault" errorTitle="Could not load the vault">
      {(data) => <VaultView vault={data} />}
    </QueryView>
  );
}

function VaultView({ vault }: { vault: Vault }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = (updated: Vault) => {
    queryClient.setQueryData(trpc.vaults.get.queryKey({ vaultAccountId: vault.id }), updated);
    void queryClient.invalidateQueries({ queryKey: trpc.vaults.list.queryKey() });
  };
  const archived = vault.status === "ARCHIVED";
  // Renaming, archiving and new wallets are `transact` (CONTRACT §14): a role without it only reads.
  const { can } = useSignedInMember();

  const [name, setName] = useState(vault.name);
  const rename = useMutation(trpc.vaults.update.mutationOptions({ onSuccess: refresh }));
  const renameFailure = formFailure(rename.error, ["name"]);

  const [metadata, setMetadata] = useState<MetadataRow[]>(toRows(vault.metadata));
  useEffect(() => setMetadata(toRows(vault.metadata)), [vault.metadata]);
  const saveMetadata = useMutation(trpc.vaults.update.mutationOptions({ onSuccess: refresh }));
  const metadataFailure = formFailure(saveMetadata.error, ["metadata"]);

  const archive = useMutation(trpc.vaults.archive.mutationOptions({ onSuccess: refresh }));

  return (
    <>
      <p>
        <Link href="/vaults">← Vaults</Link>
      </p>
      <h1>{vault.name}</h1>
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={vault.status} />
        </dd>
        <dt>Network</dt>
        <dd>{vault.networkCode}</dd>
        <dt>Vault ID</dt>
        <dd className="mono">{vault.id}</dd>
        <dt>Created</dt>
        <dd>
          <Time at={vault.createdAt} />
        </dd>
        <dt>Metadata</dt>
        <dd>
          {Object.keys(vault.metadata).length === 0
            ? "—"
            : Object.entries(vault.metadata).map(([k, v]) => (
                <div key={k}>
                  <code>{k}</code> = {v}
                </div>
              ))}
        </dd>
      </dl>
      {archived && <p className="notice">This vault is archived: it keeps its wallets but takes no new ones and cannot be changed.</p>}

      <Wallets vault={vault} />

      {!archived && can("transact") && (
        <div className="grid">
          <section className="panel" aria-labelledby="rename-heading">
            <h2 id="rename-heading">Rename</h2>
            <form
              onSubmit={(e: FormEvent) => {
                e.preventDefault();
                rename.mutate({ vaultAccountId: vault.id, name });
              }}
            >
              <TextField
                label="Vault name"
                value={name}
                onChange={(e) => setName(e.target.value)}
                required
                maxLength={200}
                error={renameFailure.field("name")}
              />
              <FormError message={renameFailure.form} />
              <button type="submit" disabled={rename.isPending}>
                Rename vault
              </button>
              {rename.isSuccess && <span role="status"> Saved.</span>}
            </form>
          </section>
          <section className="panel" aria-labelledby="metadata-heading">
            <h2 id="metadata-heading">Metadata</h2>
            <form
              onSubmit={(e: FormEvent) => {
                e.preventDefault();
                saveMetadata.mutate({ vaultAccountId: vault.id, metadata: toMetadata(metadata) });
              }}
            >
              <MetadataEditor rows={metadata} onChange={setMetadata} error={metadataFailure.field("metadata")} />
              <FormError message={metadataFailure.form} />
              <button type="submit" disabled={saveMetadata.isPending}>
                Save metadata
              </button>
              {saveMetadata.isSuccess && <span role="status"> Saved.</span>}
            </form>
          </section>
          <section className="panel" aria-labelledby="archive-heading">
            <h2 id="archive-heading">Archive</h2>
            <p>An archived vault takes no new wallets and cannot be renamed. Its wallets and history stay.</p>
            <button
              type="button"
              className="danger"
              disabled={archive.isPending}
              onClick={() =>
                window.confirm(`Archive the vault "${vault.name}"? This cannot be undone.`) && archive.mutate({ vaultAccountId: vault.id })
              }
            >
              Archive vault
            </button>
            <ErrorNotice error={archive.error} title="Could not archive" />
          </section>
        </div>
      )}
    </>
  );
}

type WalletRow = RouterOutputs["wallets"]["listByVault"]["wallets"][number];

const WALLET_COLUMNS: Column<WalletRow>[] = [
  { header: "Label", cell: (wallet) => <Link href={`/wallets/${wallet.id}`}>{wallet.label ?? "(no label)"}</Link> },
  {
    header: "Address",
    cellProps: () => ({ className: "mono" }),
    cell: (wallet) => <Link href={`/wallets/${wallet.id}`}>{wallet.address}</Link>,
  },
  { header: "Type", cell: (wallet) => wallet.type },
  { header: "Status", cell: (wallet) => <StatusBadge status={wallet.status} /> },
  { header: "Created", cell: (wallet) => <Time at={wallet.createdAt} /> },
];

function Wallets({ vault }: { vault: Vault }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pager = usePager();
  const wallets = useQuery(trpc.wallets.listByVault.queryOptions({ vaultAccountId: vault.id, limit: 25, cursor: pager.cursor }));
  const keys = useQuery(trpc.signer.keyCounts.queryOptions());
  const invalidate = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.wallets.listByVault.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.signer.keyCounts.queryKey() });
  };

  const [label, setLabel] = useState("");
  const generate = useMutation(
    trpc.wallets.generate.mutationOptions({
      onSuccess: () => {
        setLabel("");
        invalidate();
      },
    }),
  );
  const generateFailure = formFailure(generate.error, ["label"]);

  const [watchAddress, setWatchAddress] = useState("");
  const [watchLabel, setWatchLabel] = useState("");
  const watch = useMutation(
    trpc.wallets.createWatchOnly.mutationOptions({
      onSuccess: () => {
        setWatchAddress("");
        setWatchLabel("");
        invalidate();
      },
    }),
  );
  const watchFailure = formFailure(watch.error, ["address", "label"], {
    INVALID_OWNERSHIP_PROOF: "address",
    ADDRESS_ALREADY_REGISTERED: "address",
  });
  const archived = vault.status === "ARCHIVED";
  const { can } = useSignedInMember();

  return (
    <section aria-labelledby="wallets-heading">
      <h2 id="wallets-heading">Wallets</h2>
      <QueryView
        query={wallets}
        what="wallets"
        errorTitle="Could not load wallets"
        empty={(data) => data.wallets.length === 0 && "No wallets in this vault yet."}
      >
        {(data) => (
          <>
            <DataTable
              columns={WALLET_COLUMNS}
              rows={data.wallets}
              rowKey={(wallet) => wallet.id}
              rowProps={() => ({ "data-testid": "wallet-row" })}
            />
            <Pager pager={pager} page={data.page} />
          </>
        )}
      </QueryView>
      {!archived && can("transact") && (
        <div className="grid">
          <section className="panel" aria-labelledby="generate-heading">
            <h3 id="generate-heading">Generate a signer-managed wallet</h3>
            <p className="small">
              Takes the oldest key your signer enrolled ({keys.data ? `${keys.data.available} available` : "…"}). Enroll more with{" "}
              <code>signer enroll --count 5</code>.
            </p>
            <form
              onSubmit={(e: FormEvent) => {
                e.preventDefault();
                generate.mutate({ vaultAccountId: vault.id, ...(label.trim() ? { label: label.trim() } : {}) });
              }}
            >
              <TextField
                label="Wallet label"
                value={label}
                onChange={(e) => setLabel(e.target.value)}
                maxLength={200}
                error={generateFailure.field("label")}
                hint="Optional."
              />
              <FormError message={generateFailure.form} />
              <button type="submit" disabled={generate.isPending}>
                Generate wallet
              </button>
            </form>
            {generate.data && (
              <p className="notice success" role="status">
                Wallet{" "}
                <Link href={`/wallets/${generate.data.id}`} className="mono">
                  {generate.data.address}
                </Link>{" "}
                created.
              </p>
            )}
          </section>
          <section className="panel" aria-labelledby="watch-heading">
            <h3 id="watch-heading">Add a watch-only wallet</h3>
            <p className="small">Tracks the balance of an address whose key you do not hold here; it can never send.</p>
            <form
              onSubmit={(e: FormEvent) => {
                e.preventDefault();
                watch.mutate({
                  vaultAccountId: vault.id,
                  address: watchAddress.trim(),
                  ...(watchLabel.trim() ? { label: watchLabel.trim() } : {}),
                });
              }}
            >
              <TextField
                label="Address"
                value={watchAddress}
                onChange={(e) => setWatchAddress(e.target.value)}
                required
                spellCheck={false}
                placeholder="0x…"
                error={watchFailure.field("address")}
              />
              <TextField
                label="Wallet label"
                value={watchLabel}
                onChange={(e) => setWatchLabel(e.target.value)}
                maxLength={200}
                error={watchFailure.field("label")}
                hint="Optional."
              />
              <FormError message={watchFailure.form} />
              <button type="submit" disabled={watch.isPending}>
                Add watch-only wallet
              </button>
            </form>
          </section>
        </div>
      )}
      <p className="small muted">
        A wallet whose key you already hold is registered with an ownership proof from the signer:{" "}
        <code>signer register-wallet --vault {vault.id}</code>.
      </p>
    </section>
  );
}
