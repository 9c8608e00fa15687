"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { parseUnits } from "../../../src/dashboard/amounts";
import type { NetworkCode } from "../../../src/dashboard/router-types";
import { useTRPC } from "../../../src/dashboard/trpc";
import { NETWORKS } from "../../../src/dashboard/vocabulary";
import { Amount } from "../../_components/amount";
import { AddressField, FormError, SelectField, TextField } from "../../_components/field";
import { formFailure } from "../../_components/form-failure";
import { PickOne } from "../../_components/pickers";
import { StatusBadge } from "../../_components/status-badge";
import { useWalletOptions } from "../../_components/use-picker-options";
import { useApproverGroups } from "../_approvals/use-approver-groups";
import { AddressBookPicker } from "../address-book/address-book-picker";
import { useActiveEntriesFor } from "../address-book/use-address-book";

/** POST /v1/policies/evaluate: what the saved policy would decide for a transfer, without making one. */
export function DryRun() {
  const trpc = useTRPC();
  const [networkCode, setNetworkCode] = useState<NetworkCode>("QUANTUM_SANDBOX");
  const [sourceWalletId, setSourceWalletId] = useState("");
  const [destinationAddress, setDestinationAddress] = useState("");
  const [assetId, setAssetId] = useState("");
  const [amount, setAmount] = useState("");
  const [amountError, setAmountError] = useState<string | undefined>();
  const assets = useQuery(trpc.assets.list.queryOptions({ networkCode, limit: 200 }));
  const asset = assets.data?.assets.find((a) => a.id === assetId) ?? assets.data?.assets.find((a) => a.kind === "NATIVE");
  const evaluate = useMutation(trpc.policies.evaluate.mutationOptions());
  const wallets = useWalletOptions();
  const book = useActiveEntriesFor(networkCode, asset?.id ?? "");
  const { nameOf } = useApproverGroups();
  const failure = formFailure(evaluate.error, ["networkCode", "sourceWalletId", "destinationAddress", "assetId", "amount"], {
    INVALID_ADDRESS: "destinationAddress",
    UNKNOWN_ASSET: "assetId",
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!asset) return;
    const parsed = parseUnits(amount, asset.decimals);
    if (!parsed.ok) return setAmountError(parsed.message);
    setAmountError(undefined);
    evaluate.mutate({
      networkCode,
      sourceWalletId: sourceWalletId.trim(),
      destinationAddress: destinationAddress.trim(),
      assetId: asset.id,
      amount: parsed.raw,
    });
  }

  return (
    <section className="panel" aria-labelledby="dry-run-heading">
      <h2 id="dry-run-heading">Try a transfer against the saved policy</h2>
      <form onSubmit={submit} noValidate data-testid="policy-dry-run">
        <div className="row">
          <SelectField
            label="Network"
            value={networkCode}
            onChange={(e) => {
              setNetworkCode(e.target.value as NetworkCode);
              setAssetId("");
            }}
          >
            {NETWORKS.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </SelectField>
          <PickOne
            label="Source wallet"
            options={wallets.options}
            value={sourceWalletId}
            onPick={setSourceWalletId}
            placeholder="Choose a wallet…"
            error={failure.field("sourceWalletId")}
          />
        </div>
        <div className="row">
          <AddressBookPicker book={book} picked={book.entryFor(destinationAddress)} onPick={setDestinationAddress} />
          <AddressField
            label="Destination address"
            value={destinationAddress}
            onChange={(e) => setDestinationAddress(e.target.value)}
            error={failure.field("destinationAddress")}
          />
        </div>
        <div className="row">
          <SelectField label="Asset" value={asset?.id ?? ""} onChange={(e) => setAssetId(e.target.value)} error={failure.field("assetId")}>
            {assets.data?.assets.map((a) => (
              <option key={a.id} value={a.id}>
                {a.symbol} · {a.name} ({a.decimals} decimals)
              </option>
            ))}
          </SelectField>
          <TextField
            label="Amount"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            inputMode="decimal"
            error={amountError ?? failure.field("amount")}
            hint={`In ${asset?.symbol ?? "asset"} units, e.g. 1.5`}
          />
        </div>
        <FormError message={failure.form} />
        <button type="submit" disabled={evaluate.isPending}>
          Evaluate transfer
        </button>
      </form>
      {evaluate.data && (
        <div role="status" data-testid="dry-run-result" className="notice">
          <StatusBadge status={evaluate.data.decision} />{" "}
          {evaluate.data.ruleName ? (
            <>
              by rule &quot;{evaluate.data.ruleName}&quot; ({evaluate.data.ruleId})
            </>
          ) : (
            "by the default action"
          )}
          {evaluate.data.policyVersion !== null && <> · policy version {evaluate.data.policyVersion}</>}
          <div>{evaluate.data.reason}</div>
          {evaluate.data.approvals && (
            <ul data-testid="dry-run-approvals">
              {evaluate.data.approvals.map((a) => (
                <li key={a.groupId}>
                  {a.quorum} of <strong>{nameOf(a.groupId)}</strong> must approve
                </li>
              ))}
            </ul>
          )}
          {/* Present when a rule matching on `destination` was weighed (CONTRACT §16). */}
          {evaluate.data.destinationLabel !== undefined && (
            <div data-testid="dry-run-destination">
              {evaluate.data.destinationLabel === null ? (
                "The destination is not in the address book."
              ) : (
                <>
                  The destination is in the address book: <strong>{evaluate.data.destinationLabel}</strong>
                </>
              )}
            </div>
          )}
          {evaluate.data.velocitySum && (
            <div className="small muted" data-testid="dry-run-velocity-sum">
              Window sum, this transfer included:{" "}
              <Amount raw={evaluate.data.velocitySum} decimals={asset?.decimals} symbol={asset?.symbol} />
            </div>
          )}
        </div>
      )}
    </section>
  );
}
