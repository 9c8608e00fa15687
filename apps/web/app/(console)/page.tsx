"use client";

import { useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../src/dashboard/trpc";
import { ErrorNotice, Loading, QueryView } from "../_components/states";
import { StatusBadge } from "../_components/status-badge";
import { Time } from "../_components/time";
import { useSignedInMember } from "../_components/use-signed-in-member";
import { OverviewBalances } from "./overview-balances";
import { OverviewFlows } from "./overview-flows";
import { TransactionsTable } from "./transactions/transactions-table";

/** Overview: where the organization stands, the onboarding checklist, balances and flows, and the latest transfers. */
export default function OverviewPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { me, can } = useSignedInMember();
  const status = useQuery(trpc.onboarding.status.queryOptions());
  const keys = useQuery(trpc.credentials.list.queryOptions());
  const vaults = useQuery(trpc.vaults.list.queryOptions({ limit: 20 }));
  const webhooks = useQuery(trpc.webhooks.list.queryOptions({ limit: 1 }));
  const recent = useQuery(trpc.transactions.list.queryOptions({ limit: 5 }));
  // There is no "all wallets" listing: a wallet lives in a vault, so the first vaults are asked.
  const walletsByVault = useQueries({
    queries: (vaults.data?.vaults ?? []).map((vault) => trpc.wallets.listByVault.queryOptions({ vaultAccountId: vault.id, limit: 1 })),
  });
  const startKyc = useMutation(
    trpc.onboarding.startKyc.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.onboarding.status.queryKey() }),
    }),
  );

  if (!status.data) return status.error ? <ErrorNotice error={status.error} /> : <Loading what="the overview" />;
  const s = status.data;
  const hasWallet = walletsByVault.some((q) => (q.data?.wallets.length ?? 0) > 0);
  // A step is shown as to do only once it is known not to be done.
  const checklistKnown = [keys, vaults, webhooks, ...walletsByVault].every((q) => q.data !== undefined || q.error);
  const steps = [
    { done: s.emailVerified, label: "Email address verified" },
    { done: s.kyc !== null, label: "Identity verification (KYC/KYB) started" },
    { done: s.kyc?.status === "APPROVED" || s.status === "VERIFIED", label: "Identity verification approved: transfers enabled" },
    {
      done: (keys.data?.data.length ?? 0) > 0,
      label: (
        <>
          <Link href="/api-keys">First API key</Link> (for the signer and your systems)
        </>
      ),
    },
    {
      done: (vaults.data?.vaults.length ?? 0) > 0,
      label: (
        <>
          <Link href="/vaults">First vault</Link>
        </>
      ),
    },
    { done: hasWallet, label: "First wallet (in a vault)" },
    {
      done: (webhooks.data?.webhooks.length ?? 0) > 0,
      label: (
        <>
          <Link href="/webhooks">Webhook endpoint</Link> for status changes
        </>
      ),
    },
  ];

  return (
    <>
      <h1>Overview</h1>
      <div className="grid">
        <section className="panel" aria-labelledby="org-heading">
          <h2 id="org-heading">Organization</h2>
          <dl className="facts">
            <dt>Name</dt>
            <dd>{me?.tenant.name}</dd>
            <dt>Status</dt>
            <dd>
              <StatusBadge status={s.status} />
            </dd>
            <dt>Transfers</dt>
            <dd>{s.valueMovingEnabled ? "enabled" : "blocked until identity verification is approved"}</dd>
            <dt>Identity verification</dt>
            <dd>
              {s.kyc ? (
                <>
                  <StatusBadge status={s.kyc.status} /> with {s.kyc.provider}, started <Time at={s.kyc.startedAt} />
                  {s.kyc.decidedAt && (
                    <>
                      , decided <Time at={s.kyc.decidedAt} />
                    </>
                  )}
                  {s.kyc.reason && <div className="muted">Reason: {s.kyc.reason}</div>}
                </>
              ) : (
                "not started"
              )}
            </dd>
          </dl>
          {(s.nextStep === "START_KYC" || s.nextStep === "RESUBMIT_KYC") && can("administer") && (
            <button type="button" onClick={() => startKyc.mutate({})} disabled={startKyc.isPending}>
              {s.nextStep === "RESUBMIT_KYC" ? "Restart identity verification" : "Start identity verification"}
            </button>
          )}
          {s.nextStep === "AWAIT_KYC_DECISION" && (
            <p className="muted" role="status">
              Waiting for the provider&apos;s decision; this page updates by itself.
            </p>
          )}
          <ErrorNotice error={startKyc.error} title="Could not start identity verification" />
        </section>
        <section className="panel" aria-labelledby="checklist-heading">
          <h2 id="checklist-heading">Getting started</h2>
          {!checklistKnown && <Loading what="the checklist" />}
          <ol className="checklist" data-testid="onboarding-checklist" hidden={!checklistKnown}>
            {steps.map((step, i) => (
              <li key={i} className={step.done ? "done" : "todo"} data-done={step.done}>
                <span className="visually-hidden">{step.done ? "Done: " : "To do: "}</span>
                {step.label}
              </li>
            ))}
          </ol>
        </section>
      </div>
      <OverviewBalances />
      <OverviewFlows />
      <h2>Latest transactions</h2>
      <QueryView query={recent} what="transactions">
        {(data) => <TransactionsTable transactions={data.transactions} empty="No transactions yet." />}
      </QueryView>
      <p>
        <Link href="/transactions">All transactions</Link>
        {can("transact") && (
          <>
            {" "}
            · <Link href="/transactions/new">New transfer</Link>
          </>
        )}
      </p>
    </>
  );
}
