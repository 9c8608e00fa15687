"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useParams } from "next/navigation";
import type { TransactionType } from "@qc/domain";
import { useState, type FormEvent } from "react";
import type { Asset, NetworkCode, Wallet } from "../../../../src/dashboard/router-types";
import { useTRPC } from "../../../../src/dashboard/trpc";
import { NETWORKS } from "../../../../src/dashboard/vocabulary";
import { AddressQr } from "../../../_components/address-qr";
import { Amount } from "../../../_components/amount";
import { CopyButton } from "../../../_components/copy-button";
import { DataTable } from "../../../_components/data-table";
import { FormError, SelectField } from "../../../_components/field";
import { formFailure } from "../../../_components/form-failure";
import { ErrorNotice, Loading, QueryView } from "../../../_components/states";
import { StatusBadge } from "../../../_components/status-badge";
import { Time } from "../../../_components/time";
import { Pager, usePager } from "../../../_components/pager";
import { useAssets } from "../../../_components/use-assets";
import { useSignedInMember } from "../../../_components/use-signed-in-member";
import { TransactionTypeField } from "../../transactions/direction";
import { TransactionsTable } from "../../transactions/transactions-table";
import { BalanceHistorySection } from "./balance-history";

/** Balances are read live from the chain; this is how often the page asks again. */
const BALANCE_POLL_MS = 5_000;
/** Deposits arrive by themselves: the wallet's transactions are read again this often. */
const TRANSACTIONS_POLL_MS = 5_000;

export default function WalletPage() {
  const { id } = useParams<{ id: string }>();
  const trpc = useTRPC();
  const wallet = useQuery(trpc.wallets.get.queryOptions({ walletId: id }));
  return (
    <QueryView query={wallet} what="the wallet" errorTitle="Could not load the wallet">
      {(data) => <WalletView wallet={data} />}
    </QueryView>
  );
}

function WalletView({ wallet }: { wallet: Wallet }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { assets } = useAssets();
  const home = useQuery(trpc.vaults.get.queryOptions({ vaultAccountId: wallet.vaultId }));
  const setWallet = (updated: Wallet) => {
    queryClient.setQueryData(trpc.wallets.get.queryKey({ walletId: wallet.id }), updated);
    void queryClient.invalidateQueries({ queryKey: trpc.wallets.listByVault.queryKey() });
  };
  const archive = useMutation(trpc.wallets.archive.mutationOptions({ onSuccess: setWallet }));
  // Placing, sending from and archiving a wallet are `transact` (CONTRACT §14): a role without it only reads.
  const { can } = useSignedInMember();
  const changeable = wallet.status === "ACTIVE" && can("transact");
  // Per placement: the network's native asset and every tracked asset of that network.
  const balances = wallet.networkLinks.flatMap((link) =>
    assets
      .filter((asset) => asset.networkCode === link.networkCode && (asset.kind === "NATIVE" || wallet.assetIds.includes(asset.id)))
      .map((asset) => ({ link, asset })),
  );

  return (
    <>
      <p>
        <Link href={`/vaults/${wallet.vaultId}`}>← {home.data?.name ?? "Vault"}</Link>
      </p>
      <h1>{wallet.label ?? "Wallet"}</h1>
      <div className="grid">
        <section className="panel" aria-labelledby="address-heading">
          <h2 id="address-heading">Address</h2>
          <p>
            <code className="secret" data-testid="wallet-address">
              {wallet.address}
            </code>{" "}
            <CopyButton value={wallet.address} label="Copy address" />
          </p>
          <AddressQr address={wallet.address} />
        </section>
        <section className="panel" aria-labelledby="wallet-facts-heading">
          <h2 id="wallet-facts-heading">Details</h2>
          <dl className="facts">
            <dt>Type</dt>
            <dd data-testid="wallet-type">{wallet.type}</dd>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={wallet.status} />
            </dd>
            <dt>Home vault</dt>
            <dd>
              <Link href={`/vaults/${wallet.vaultId}`}>{home.data?.name ?? wallet.vaultId}</Link>
            </dd>
            <dt>Wallet ID</dt>
            <dd className="mono">{wallet.id}</dd>
            <dt>Created</dt>
            <dd>
              <Time at={wallet.createdAt} />
            </dd>
            <dt>Public key</dt>
            <dd>
              {wallet.publicKey ? (
                <details>
                  <summary>ML-DSA-87, {(wallet.publicKey.length - 2) / 2} bytes</summary>
                  <code className="small">{wallet.publicKey}</code>
                </details>
              ) : (
                "none (watch-only)"
              )}
            </dd>
          </dl>
        </section>
      </div>

      <h2>Balances</h2>
      <DataTable
        testId="balances"
        headers={["Network", "Asset", "Balance", "Block"]}
        rows={balances}
        rowKey={({ link, asset }) => `${link.networkCode}:${asset.id}`}
        emptyRow={<Loading what="balances" />}
        renderRow={({ link, asset }) => <BalanceRow wallet={wallet} networkCode={link.networkCode} asset={asset} />}
      />

      <BalanceHistorySection walletId={wallet.id} />

      <WalletTransactions walletId={wallet.id} />

      <h2>Network placements</h2>
      <DataTable
        columns={[
          { header: "Network", cell: (link) => link.networkCode },
          {
            header: "Vault",
            cell: (link) => (
              <>
                <Link href={`/vaults/${link.vaultId}`} className="mono">
                  {link.vaultId}
                </Link>
                {link.vaultId === wallet.vaultId && <span className="muted"> (home)</span>}
              </>
            ),
          },
        ]}
        rows={wallet.networkLinks}
        rowKey={(link) => link.networkCode}
      />
      {changeable && <AddPlacement wallet={wallet} onPlaced={setWallet} />}

      {changeable && (
        <section className="actions">
          {wallet.type !== "WATCH_ONLY" && (
            <Link
              href={`/transactions/new?networkCode=${home.data?.networkCode ?? ""}&vaultId=${wallet.vaultId}&sourceWalletId=${wallet.id}`}
            >
              New transfer from this wallet
            </Link>
          )}
          <button
            type="button"
            className="danger"
            disabled={archive.isPending}
            onClick={() => window.confirm("Archive this wallet? It can no longer send.") && archive.mutate({ walletId: wallet.id })}
          >
            Archive wallet
          </button>
          <ErrorNotice error={archive.error} title="Could not archive" />
        </section>
      )}
    </>
  );
}

/**
 * Both sides of the wallet (CONTRACT §21): what it sent and the deposits it received, newest
 * first (`walletId` matches either side), with the list's type filter.
 */
function WalletTransactions({ walletId }: { walletId: string }) {
  const trpc = useTRPC();
  const pager = usePager();
  const [type, setType] = useState<TransactionType | "">("");
  const list = useQuery({
    ...trpc.transactions.list.queryOptions({ limit: 10, cursor: pager.cursor, walletId, type: type || undefined }),
    refetchInterval: TRANSACTIONS_POLL_MS,
  });
  return (
    <section aria-labelledby="wallet-transactions-heading" data-testid="wallet-transactions">
      <h2 id="wallet-transactions-heading">Transactions</h2>
      <p className="small muted">Sent from this wallet, and deposits to it as they are seen on chain.</p>
      <div className="row">
        <TransactionTypeField
          value={type}
          onChange={(next) => {
            setType(next);
            pager.reset();
          }}
        />
      </div>
      <QueryView query={list} what="the wallet's transactions" errorTitle="Could not load the wallet's transactions">
        {(data) => (
          <>
            <TransactionsTable
              walletId={walletId}
              transactions={data.transactions}
              empty={type ? "No transaction of this type to or from this wallet." : "Nothing sent from or deposited to this wallet yet."}
            />
            <Pager pager={pager} page={data.page} />
          </>
        )}
      </QueryView>
    </section>
  );
}

function BalanceRow({ wallet, networkCode, asset }: { wallet: Wallet; networkCode: NetworkCode; asset: Asset }) {
  const trpc = useTRPC();
  const balance = useQuery({
    ...trpc.wallets.balance.queryOptions({ walletId: wallet.id, assetId: asset.id, networkCode }),
    refetchInterval: BALANCE_POLL_MS,
  });
  return (
    <tr data-testid="balance-row" data-asset={asset.symbol}>
      <td>{networkCode}</td>
      <td>
        {asset.symbol} <span className="muted small">({asset.decimals} decimals)</span>
      </td>
      <td>
        {balance.error ? (
          <ErrorNotice error={balance.error} title="Balance unavailable" />
        ) : balance.data ? (
          <Amount raw={balance.data.balance} decimals={asset.decimals} symbol={asset.symbol} />
        ) : (
          <span className="muted">reading…</span>
        )}
      </td>
      <td>{balance.data?.blockNumber ?? "—"}</td>
    </tr>
  );
}

function AddPlacement({ wallet, onPlaced }: { wallet: Wallet; onPlaced: (w: Wallet) => void }) {
  const trpc = useTRPC();
  const free = NETWORKS.filter((n) => !wallet.networkLinks.some((link) => link.networkCode === n));
  const [networkCode, setNetworkCode] = useState<NetworkCode | "">(free[0] ?? "");
  const [vaultId, setVaultId] = useState("");
  const vaults = useQuery({
    ...trpc.vaults.list.queryOptions({ limit: 200, networkCode: networkCode || undefined, status: "ACTIVE" }),
    enabled: networkCode !== "",
  });
  const place = useMutation(trpc.wallets.addNetworkLink.mutationOptions({ onSuccess: onPlaced }));
  const failure = formFailure(place.error, ["networkCode", "vaultId"], { NETWORK_MISMATCH: "vaultId" });
  if (free.length === 0) return null;
  return (
    <form
      className="panel"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        if (networkCode) place.mutate({ walletId: wallet.id, networkCode, vaultId });
      }}
    >
      <h3>Place on another network</h3>
      <p className="small">The same address on another QUANTUM network, in a vault of that network.</p>
      <div className="row">
        <SelectField
          label="Network"
          value={networkCode}
          onChange={(e) => setNetworkCode(e.target.value as NetworkCode)}
          error={failure.field("networkCode")}
        >
          {free.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </SelectField>
        <SelectField label="Vault" value={vaultId} onChange={(e) => setVaultId(e.target.value)} required error={failure.field("vaultId")}>
          <option value="">Choose a vault…</option>
          {vaults.data?.vaults.map((v) => (
            <option key={v.id} value={v.id}>
              {v.name}
            </option>
          ))}
        </SelectField>
      </div>
      <FormError message={failure.form} />
      <button type="submit" disabled={place.isPending || !vaultId}>
        Add placement
      </button>
    </form>
  );
}
