"use client";

import type { PolicyAction } from "@qc/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { parseUnits } from "../../../src/dashboard/amounts";
import { describeFailure } from "../../../src/dashboard/api-error";
import { checkDraft, emptyRule, toDocument, toDrafts, type RuleDraft } from "../../../src/dashboard/policy-draft";
import type { NetworkCode, Policy } from "../../../src/dashboard/router-types";
import { useTRPC } from "../../../src/dashboard/trpc";
import { NETWORKS } from "../../../src/dashboard/vocabulary";
import { CheckboxGroup, FormError, SelectField, TextAreaField, TextField } from "../../_components/field";
import { formFailure } from "../../_components/form-failure";
import { QueryView } from "../../_components/states";
import { StatusBadge } from "../../_components/status-badge";
import { Time } from "../../_components/time";
import { useSignedInMember } from "../../_components/use-signed-in-member";
import { Denylist } from "./denylist";

export default function PoliciesPage() {
  const trpc = useTRPC();
  const policy = useQuery(trpc.policies.get.queryOptions());
  return (
    <>
      <h1>Policies</h1>
      <p>
        Every transfer is checked against these rules in order; the first rule that matches decides, and the default action decides when
        none does. A blocked transfer ends as <code>BLOCKED</code> / <code>BLOCKED_BY_POLICY</code> before anything is signed.
      </p>
      <QueryView query={policy} what="the policy" errorTitle="Could not load the policy">
        {(data) => <PolicyEditor policy={data} />}
      </QueryView>
      <DryRun />
      <Denylist />
    </>
  );
}

function PolicyEditor({ policy }: { policy: Policy }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [defaultAction, setDefaultAction] = useState(policy.defaultAction);
  const [rules, setRules] = useState<RuleDraft[]>(() => toDrafts(policy));
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  // Policies are `administer` (CONTRACT §14): other roles read the rules, with nothing to edit or save.
  const administer = useSignedInMember().can("administer");
  useEffect(() => {
    setDefaultAction(policy.defaultAction);
    setRules(toDrafts(policy));
  }, [policy]);
  const save = useMutation(
    trpc.policies.replace.mutationOptions({ onSuccess: (saved) => queryClient.setQueryData(trpc.policies.get.queryKey(), saved) }),
  );
  const serverFields = save.error ? describeFailure(save.error).fields : {};
  const serverForm = formFailure(save.error, ["rules", "defaultAction"]).form;
  /** The message for a field path, the local check first; nested paths (`…destinationAddresses.2`) land on their list. */
  const errorAt = (path: string) =>
    localErrors[path] ?? Object.entries(serverFields).find(([p]) => p === path || p.startsWith(`${path}.`))?.[1];
  const update = (index: number, patch: Partial<RuleDraft>) =>
    setRules((all) => all.map((rule, i) => (i === index ? { ...rule, ...patch } : rule)));
  const move = (index: number, by: number) =>
    setRules((all) => {
      const next = [...all];
      const [rule] = next.splice(index, 1);
      next.splice(index + by, 0, rule!);
      return next;
    });

  function submit(event: FormEvent) {
    event.preventDefault();
    const errors = checkDraft(rules);
    setLocalErrors(errors);
    if (Object.keys(errors).length > 0) return;
    save.mutate(toDocument(defaultAction, rules));
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby="policy-heading" data-testid="policy-editor">
      <h2 id="policy-heading">Rules</h2>
      <p className="muted small">
        Version {policy.version}
        {policy.updatedAt && (
          <>
            , saved <Time at={policy.updatedAt} />
          </>
        )}
        {policy.version === 0 && " (never set: every transfer is allowed)"}. Amounts are in base units of the transfer&apos;s asset (1 Q =
        10^18).
      </p>
      {!administer && <p className="notice">An OWNER or ADMIN of your organization changes the policy; your role reads it.</p>}
      <fieldset className="plain" disabled={!administer}>
        {rules.map((rule, i) => (
          <fieldset key={i} className="panel" data-testid="policy-rule">
            <legend>
              Rule {i + 1}
              {rule.name ? `: ${rule.name}` : ""}
            </legend>
            <div className="row">
              <TextField
                label="Rule ID"
                value={rule.id}
                onChange={(e) => update(i, { id: e.target.value })}
                error={errorAt(`rules.${i}.id`)}
              />
              <TextField
                label="Rule name"
                value={rule.name}
                onChange={(e) => update(i, { name: e.target.value })}
                error={errorAt(`rules.${i}.name`)}
              />
              <SelectField label="Action" value={rule.action} onChange={(e) => update(i, { action: e.target.value as PolicyAction })}>
                <option value="BLOCK">BLOCK</option>
                <option value="ALLOW">ALLOW</option>
              </SelectField>
            </div>
            <CheckboxGroup
              legend="Networks"
              options={NETWORKS.map((n) => ({ value: n, label: n }))}
              value={rule.networkCodes}
              onChange={(v) => update(i, { networkCodes: v })}
              error={errorAt(`rules.${i}.match.networkCodes`)}
              hint="None ticked: any network."
            />
            <div className="row">
              <TextAreaField
                label="Destination addresses"
                value={rule.destinationAddresses}
                onChange={(e) => update(i, { destinationAddresses: e.target.value })}
                error={errorAt(`rules.${i}.match.destinationAddresses`)}
                hint="One a line; empty: any destination."
                spellCheck={false}
              />
              <TextField
                label="Amount above"
                value={rule.amountAbove}
                onChange={(e) => update(i, { amountAbove: e.target.value })}
                inputMode="numeric"
                error={errorAt(`rules.${i}.match.amountAbove`)}
                hint="Base units; empty: any amount."
              />
            </div>
            <div className="row">
              <TextAreaField
                label="Source wallet IDs"
                value={rule.sourceWalletIds}
                onChange={(e) => update(i, { sourceWalletIds: e.target.value })}
                error={errorAt(`rules.${i}.match.sourceWalletIds`)}
                hint="One a line; empty: any wallet."
                spellCheck={false}
              />
              <TextAreaField
                label="Source vault IDs"
                value={rule.sourceVaultIds}
                onChange={(e) => update(i, { sourceVaultIds: e.target.value })}
                error={errorAt(`rules.${i}.match.sourceVaultIds`)}
                hint="One a line; empty: any vault."
                spellCheck={false}
              />
              <TextAreaField
                label="Asset IDs"
                value={rule.assetIds}
                onChange={(e) => update(i, { assetIds: e.target.value })}
                error={errorAt(`rules.${i}.match.assetIds`)}
                hint="One a line; empty: any asset."
                spellCheck={false}
              />
            </div>
            <label className="checkbox">
              <input type="checkbox" checked={rule.velocity} onChange={(e) => update(i, { velocity: e.target.checked })} /> Only when the
              amount moved over a time window is above a limit (velocity)
            </label>
            {rule.velocity && (
              <div className="row">
                <TextField
                  label="Velocity limit"
                  value={rule.velocityAmount}
                  onChange={(e) => update(i, { velocityAmount: e.target.value })}
                  inputMode="numeric"
                  error={errorAt(`rules.${i}.velocity.amount`)}
                  hint="Base units, this transfer included."
                />
                <TextField
                  label="Window (seconds)"
                  type="number"
                  min={1}
                  value={rule.velocityWindowSeconds}
                  onChange={(e) => update(i, { velocityWindowSeconds: e.target.value })}
                  error={errorAt(`rules.${i}.velocity.windowSeconds`)}
                />
                <SelectField
                  label="Counted per"
                  value={rule.velocityScope}
                  onChange={(e) => update(i, { velocityScope: e.target.value as RuleDraft["velocityScope"] })}
                >
                  <option value="WALLET">WALLET (source wallet)</option>
                  <option value="VAULT">VAULT (source vault)</option>
                  <option value="TENANT">TENANT (whole organization)</option>
                </SelectField>
              </div>
            )}
            {administer && (
              <div className="actions">
                <button type="button" className="secondary small" onClick={() => move(i, -1)} disabled={i === 0}>
                  Move rule {i + 1} up
                </button>
                <button type="button" className="secondary small" onClick={() => move(i, 1)} disabled={i === rules.length - 1}>
                  Move rule {i + 1} down
                </button>
                <button type="button" className="danger small" onClick={() => setRules((all) => all.filter((_, j) => j !== i))}>
                  Remove rule {i + 1}
                </button>
              </div>
            )}
          </fieldset>
        ))}
        {administer && (
          <p>
            <button type="button" className="secondary" onClick={() => setRules((all) => [...all, emptyRule(all.length)])}>
              Add rule
            </button>
          </p>
        )}
        <SelectField
          label="Default action"
          value={defaultAction}
          onChange={(e) => setDefaultAction(e.target.value as typeof defaultAction)}
          hint="When no rule matches."
        >
          <option value="ALLOW">ALLOW</option>
          <option value="BLOCK">BLOCK</option>
        </SelectField>
      </fieldset>
      {Object.keys(localErrors).length > 0 && <FormError message="Some rules need fixing (see the fields marked above)." />}
      <FormError message={serverForm} />
      {administer && (
        <button type="submit" disabled={save.isPending}>
          Save policy
        </button>
      )}
      {save.isSuccess && (
        <span role="status" className="notice success">
          {" "}
          Saved as version {save.data.version}.
        </span>
      )}
    </form>
  );
}

/** POST /v1/policies/evaluate: what the saved policy would decide for a transfer, without making one. */
function DryRun() {
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
          <TextField
            label="Source wallet ID"
            value={sourceWalletId}
            onChange={(e) => setSourceWalletId(e.target.value)}
            spellCheck={false}
            error={failure.field("sourceWalletId")}
          />
        </div>
        <TextField
          label="Destination address"
          value={destinationAddress}
          onChange={(e) => setDestinationAddress(e.target.value)}
          spellCheck={false}
          error={failure.field("destinationAddress")}
        />
        <div className="row">
          <SelectField label="Asset" value={asset?.id ?? ""} onChange={(e) => setAssetId(e.target.value)} error={failure.field("assetId")}>
            {assets.data?.assets.map((a) => (
              <option key={a.id} value={a.id}>
                {a.symbol} ({a.decimals} decimals)
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
          {evaluate.data.velocitySum && (
            <div className="small muted">Window sum, this transfer included: {evaluate.data.velocitySum} base units</div>
          )}
        </div>
      )}
    </section>
  );
}
