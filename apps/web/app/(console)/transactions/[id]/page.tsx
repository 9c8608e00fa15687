"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useParams } from "next/navigation";
import { useEffect, useState, type FormEvent } from "react";
import type { Transaction } from "../../../../src/dashboard/router-types";
import { useTRPC } from "../../../../src/dashboard/trpc";
import { isCancellable, isTerminal } from "../../../../src/dashboard/vocabulary";
import { AssetAmount, FeeCapsFacts } from "../../../_components/amount";
import { TextField } from "../../../_components/field";
import { ErrorNotice, Loading, QueryView } from "../../../_components/states";
import { StatusBadge, SubStatus, TransactionStatusBadge } from "../../../_components/status-badge";
import { Time } from "../../../_components/time";
import { useAssets } from "../../../_components/use-assets";
import { useSignedInMember } from "../../../_components/use-signed-in-member";
import { DirectionMarker } from "../direction";
import { ApprovalsSection } from "./approvals-section";
import { ReplaceSection } from "./replace-section";
import { SimulationSection } from "./simulation-section";
import { TRANSACTION_TYPE_NAMES } from "../../../../src/dashboard/transaction-kinds";

/** Polled while the transfer moves; nothing changes once it is terminal. */
const POLL_MS = 1_500;

export default function TransactionPage() {
  const { id } = useParams<{ id: string }>();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const live = (data: Transaction | undefined) => (data && isTerminal(data.status) ? false : POLL_MS);
  const tx = useQuery({ ...trpc.transactions.get.queryOptions({ transactionId: id }), refetchInterval: (q) => live(q.state.data) });
  const events = useQuery({ ...trpc.transactions.events.queryOptions({ transactionId: id }), refetchInterval: () => live(tx.data) });
  // The timeline is read apart from the status, and stops polling once the status is terminal: a
  // timeline read that ran before the last change would stay behind for good. Each new status
  // (its history row is written with it) reads the timeline again, after the status was seen.
  const status = tx.data?.status;
  const subStatus = tx.data?.subStatus;
  const refetchEvents = events.refetch;
  useEffect(() => {
    if (status !== undefined) void refetchEvents();
  }, [status, subStatus, refetchEvents]);
  const { byId, query: assetList } = useAssets();
  const { can } = useSignedInMember();
  const [reason, setReason] = useState("");
  const cancel = useMutation(
    trpc.transactions.cancel.mutationOptions({
      onSuccess: (updated) => {
        queryClient.setQueryData(trpc.transactions.get.queryKey({ transactionId: id }), updated);
        void queryClient.invalidateQueries({ queryKey: trpc.transactions.events.queryKey({ transactionId: id }) });
      },
    }),
  );

  if (tx.error) return <ErrorNotice error={tx.error} title="Could not load the transaction" />;
  if (!tx.data) return <Loading what="the transaction" />;
  const t = tx.data;
  // A deposit (CONTRACT §21) was received, not sent: no source wallet, no signing, no policy.
  const inbound = t.direction === "INBOUND";
  // The service's own nonce records (CONTRACT §17) say what they are: a speed-up, a cancellation, a fill.
  const noun = inbound ? "Deposit" : t.type === "TRANSFER" || t.type === "CONTRACT_DEPLOY" ? "Transfer" : TRANSACTION_TYPE_NAMES[t.type];
  const asset = t.assetId ? byId.get(t.assetId) : undefined;

  function submitCancel(event: FormEvent) {
    event.preventDefault();
    cancel.mutate({ transactionId: id, ...(reason.trim() ? { reason: reason.trim() } : {}) });
  }

  return (
    <>
      <p>
        <Link href="/transactions">← Transactions</Link>
      </p>
      <h1>
        {noun} <span className="mono small">{t.id}</span>
      </h1>
      <p aria-live="polite" data-testid="transaction-status">
        Status: <TransactionStatusBadge status={t.status} subStatus={t.subStatus} />
        {t.statusReason && <span className="muted"> · {t.statusReason}</span>}
        {!isTerminal(t.status) && <span className="muted small"> (updating live)</span>}
      </p>
      {t.status === "AWAITING_APPROVAL" && (
        <p className="notice warning">
          Waiting for approvers: see Approvals below; each approves with <code>signer approve {t.id}</code>.
        </p>
      )}
      {t.stuck && t.status === "BROADCASTING" && (
        <p className="notice warning" data-testid="stuck-notice">
          Stuck: sent {t.broadcastAt ? <Time at={t.broadcastAt} /> : "a while ago"} and not mined yet, most likely because the
          network&apos;s base fee is above its fee cap. Speed it up or cancel it on chain below.
        </p>
      )}
      {t.status === "PENDING_SIGNATURE" && (
        <p className="notice warning">
          Waiting for your signer: run <code>signer review {t.id}</code> on the signer&apos;s machine.
        </p>
      )}
      <div className="grid">
        <section className="panel" aria-labelledby="intent-heading">
          <h2 id="intent-heading">{noun}</h2>
          <dl className="facts">
            <dt>Direction</dt>
            <dd>
              <DirectionMarker direction={t.direction} />
            </dd>
            <dt>Amount</dt>
            <dd data-testid="transaction-amount">
              <AssetAmount raw={t.amount} assetId={t.assetId} />
            </dd>
            {t.tokenAddress && (
              <>
                <dt>Token contract</dt>
                <dd data-testid="token-address">
                  <span className="mono">{t.tokenAddress}</span>
                  {!asset && assetList.isSuccess && (
                    <div className="muted small">not one of your assets: the amount is in the token&apos;s base units</div>
                  )}
                </dd>
              </>
            )}
            <dt>Network</dt>
            <dd>
              {t.networkCode} (chain {t.chainId})
            </dd>
            {inbound ? (
              <>
                <dt>Sender</dt>
                <dd className="mono" data-testid="deposit-sender">
                  {t.sourceAddress}
                </dd>
                <dt>Received by</dt>
                <dd data-testid="receiving-wallet">
                  <Link href={`/wallets/${t.destinationWalletId}`} className="mono">
                    {t.destinationAddress}
                  </Link>
                </dd>
              </>
            ) : (
              <>
                <dt>Source</dt>
                <dd>
                  <Link href={`/wallets/${t.sourceWalletId}`} className="mono">
                    {t.sourceAddress}
                  </Link>
                </dd>
                <dt>Destination</dt>
                <dd>
                  <span className="mono">{t.destinationAddress ?? "—"}</span>
                  {t.destinationLabel && (
                    <>
                      {" "}
                      <span data-testid="destination-label" title="Its label in the address book">
                        ({t.destinationLabel})
                      </span>
                    </>
                  )}
                </dd>
              </>
            )}
            {t.replacesTransactionId && (
              <>
                <dt>Replaces</dt>
                <dd data-testid="replaces-link">
                  <Link href={`/transactions/${t.replacesTransactionId}`} className="mono">
                    {t.replacesTransactionId}
                  </Link>
                </dd>
              </>
            )}
            {t.replacedByTransactionId && (
              <>
                <dt>{t.subStatus === "CANCELLED_ON_CHAIN" ? "Cancelled by" : "Replaced by"}</dt>
                <dd data-testid="replaced-by-link">
                  <Link href={`/transactions/${t.replacedByTransactionId}`} className="mono">
                    {t.replacedByTransactionId}
                  </Link>
                </dd>
              </>
            )}
            <dt>External ID</dt>
            <dd>{t.externalId ?? "—"}</dd>
            <dt>Note</dt>
            <dd>{t.note ?? "—"}</dd>
            <dt>Created</dt>
            <dd>
              <Time at={t.createdAt} />
            </dd>
          </dl>
        </section>
        <section className="panel" aria-labelledby="chain-heading">
          <h2 id="chain-heading">On chain</h2>
          <dl className="facts">
            {!inbound && <SendingFacts t={t} />}
            <dt>Chain hash</dt>
            <dd className="mono" data-testid="chain-tx-hash">
              {t.chainTxHash ?? "—"}
            </dd>
            <dt>Block</dt>
            <dd data-testid="block-number">{t.blockNumber ?? "—"}</dd>
            {t.logIndex !== null && (
              <>
                <dt>Log index</dt>
                <dd>{t.logIndex}</dd>
              </>
            )}
            <dt>Confirmations</dt>
            <dd data-testid="confirmations">
              {t.confirmations} ({t.requiredConfirmations} required)
            </dd>
            {!inbound && (
              <>
                <dt>Signed</dt>
                <dd>
                  <Time at={t.signedAt} />
                </dd>
                <dt>Broadcast</dt>
                <dd>
                  <Time at={t.broadcastAt} />
                  {t.stuck && (
                    <div className="small muted" data-testid="stuck-flag">
                      stuck: waited longer than expected to be mined
                    </div>
                  )}
                </dd>
              </>
            )}
            <dt>Completed</dt>
            <dd>
              <Time at={t.completedAt} />
            </dd>
          </dl>
        </section>
        <section className="panel" aria-labelledby="checks-heading">
          <h2 id="checks-heading">Checks</h2>
          <dl className="facts">
            <dt>Policy</dt>
            <dd data-testid="policy-result">
              {inbound ? (
                <span className="muted">not applied: a deposit is received, not sent</span>
              ) : t.policy ? (
                <>
                  <StatusBadge status={t.policy.decision} />
                  {t.policy.ruleId ? (
                    <>
                      {" "}
                      by rule <code>{t.policy.ruleId}</code>
                    </>
                  ) : (
                    " (default action)"
                  )}
                </>
              ) : (
                "not checked yet"
              )}
            </dd>
            <dt>{inbound ? "Sender screening" : "Screening"}</dt>
            <dd data-testid="screening-result">
              {t.screening ? (
                <>
                  <StatusBadge status={t.screening.decision === "CLEAR" ? "ALLOW" : "BLOCK"}>{t.screening.decision}</StatusBadge> by{" "}
                  {t.screening.provider}
                  {t.screening.riskScore !== null && <> · risk score {t.screening.riskScore}</>}
                  {t.screening.reasons.length > 0 && <div className="muted">{t.screening.reasons.join("; ")}</div>}
                </>
              ) : (
                "not screened yet"
              )}
            </dd>
          </dl>
        </section>
      </div>
      {t.simulation && <SimulationSection simulation={t.simulation} />}
      {t.approvals && <ApprovalsSection transaction={t} approvals={t.approvals} />}
      <h2>Timeline</h2>
      <QueryView query={events} what="the timeline">
        {(data) => (
          <ol className="timeline" data-testid="timeline">
            {data.events.map((event) => (
              <li key={event.id}>
                <StatusBadge status={event.to} />{" "}
                {event.from ? <span className="muted small">· from {event.from}</span> : <span className="muted small">· created</span>}
                {event.subStatus && (
                  <>
                    {" "}
                    · <SubStatus subStatus={event.subStatus} />
                  </>
                )}
                <div className="small">
                  <Time at={event.at} /> · by {event.actor.type}
                  {event.actor.id ? ` ${event.actor.id}` : ""}
                </div>
                {event.reason && <div className="small muted">{event.reason}</div>}
              </li>
            ))}
          </ol>
        )}
      </QueryView>
      {!inbound && t.status === "BROADCASTING" && can("transact") && <ReplaceSection transaction={t} />}
      {!inbound && isCancellable(t.status) && can("transact") && (
        <form onSubmit={submitCancel} className="panel">
          <h2>Cancel</h2>
          <TextField label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} hint="Optional; kept in the timeline." />
          <button type="submit" className="danger" disabled={cancel.isPending}>
            Cancel transfer
          </button>
          <ErrorNotice error={cancel.error} title="Could not cancel" />
        </form>
      )}
    </>
  );
}

/** What only a transaction the service sends has: its nonce, fee caps and signing hash. */
function SendingFacts({ t }: { t: Transaction }) {
  return (
    <>
      <dt>Nonce</dt>
      <dd>{t.nonce ?? "—"}</dd>
      {t.fee ? (
        <FeeCapsFacts fee={t.fee} networkCode={t.networkCode} />
      ) : (
        <>
          <dt>Fee caps</dt>
          <dd>set when the transfer is released for signing</dd>
        </>
      )}
      <dt>Signing hash</dt>
      <dd className="mono">{t.signingHash ?? "—"}</dd>
    </>
  );
}
