"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { describeFailure } from "../../../src/dashboard/api-error";
import { checkDraft, emptyRule, toDocument, toDrafts, type RuleDraft } from "../../../src/dashboard/policy-draft";
import type { Asset, Policy } from "../../../src/dashboard/router-types";
import { useTRPC } from "../../../src/dashboard/trpc";
import { FormError, SelectField } from "../../_components/field";
import { formFailure } from "../../_components/form-failure";
import { QueryView } from "../../_components/states";
import { Time } from "../../_components/time";
import { useAssetOptions, useVaultOptions, useWalletOptions } from "../../_components/use-picker-options";
import { useSignedInMember } from "../../_components/use-signed-in-member";
import { useAddressBook } from "../address-book/use-address-book";
import { Denylist } from "./denylist";
import { DryRun } from "./dry-run";
import { RuleFields, type RulePickerOptions } from "./rule-fields";

export default function PoliciesPage() {
  const trpc = useTRPC();
  const policy = useQuery(trpc.policies.get.queryOptions());
  // The amounts are shown in the rules' asset units: the editor waits for the assets' decimals.
  const assets = useAssetOptions();
  return (
    <>
      <h1>Policies</h1>
      <p>
        Every transfer is checked against these rules in order; the first rule that matches decides, and the default action decides when
        none does. A blocked transfer ends as <code>BLOCKED</code> / <code>BLOCKED_BY_POLICY</code> before anything is signed; a transfer a{" "}
        <code>REQUIRE_APPROVAL</code> rule matches waits in <code>AWAITING_APPROVAL</code> until every group the rule names reaches its
        quorum (approver groups are kept on the <a href="/members#approver-groups">Members</a> page).
      </p>
      <QueryView query={policy} what="the policy" errorTitle="Could not load the policy">
        {(data) => (
          <QueryView query={assets.query} what="the assets">
            {() => <PolicyEditor policy={data} assets={assets.assets} assetOptions={assets.options} />}
          </QueryView>
        )}
      </QueryView>
      <DryRun />
      <Denylist />
    </>
  );
}

function PolicyEditor({ policy, assets, assetOptions }: { policy: Policy; assets: Asset[]; assetOptions: RulePickerOptions["assets"] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [defaultAction, setDefaultAction] = useState(policy.defaultAction);
  const [rules, setRules] = useState<RuleDraft[]>(() => toDrafts(policy, assets));
  const vaults = useVaultOptions();
  const wallets = useWalletOptions();
  const book = useAddressBook("ACTIVE");
  const options: RulePickerOptions = {
    vaults: vaults.options,
    wallets: wallets.options,
    assets: assetOptions,
    addresses: book.entries.map((e) => ({ value: e.address, label: `${e.label} · ${e.address}`, keys: [e.label] })),
    unitAssets: assets,
  };
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  // Policies are `administer` (CONTRACT §14): other roles read the rules, with nothing to edit or save.
  const administer = useSignedInMember().can("administer");
  useEffect(() => {
    setDefaultAction(policy.defaultAction);
    setRules(toDrafts(policy, assets));
  }, [policy, assets]);
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
    const errors = checkDraft(rules, assets);
    setLocalErrors(errors);
    if (Object.keys(errors).length > 0) return;
    save.mutate(toDocument(defaultAction, rules, assets));
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
        {policy.version === 0 && " (never set: every transfer is allowed)"}. Amounts are typed in the units of the asset a rule chooses (in
        Q when it chooses none; in base units when its assets have different decimals); the API stores base units, shown under each amount.
      </p>
      {!administer && <p className="notice">An OWNER or ADMIN of your organization changes the policy; your role reads it.</p>}
      <fieldset className="plain" disabled={!administer}>
        {rules.map((rule, i) => (
          <RuleFields
            key={i}
            rule={rule}
            index={i}
            last={i === rules.length - 1}
            administer={administer}
            errorAt={errorAt}
            onChange={(patch) => update(i, patch)}
            onMove={(by) => move(i, by)}
            onRemove={() => setRules((all) => all.filter((_, j) => j !== i))}
            options={options}
          />
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
