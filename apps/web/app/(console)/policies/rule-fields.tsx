"use client";

import type { PolicyAction } from "@qc/domain";
import { emptyApproval, type RuleDraft } from "../../../src/dashboard/policy-draft";
import { NETWORKS, POLICY_DESTINATION_MATCHES, POLICY_DESTINATION_NAMES } from "../../../src/dashboard/vocabulary";
import { CheckboxGroup, SelectField, TextAreaField, TextField } from "../../_components/field";
import { ApprovalRequirements } from "./approval-requirements";

export interface RuleFieldsProps {
  rule: RuleDraft;
  /** The rule's position (0-based): its legend, its field paths (`rules.N.…`) and its buttons' names. */
  index: number;
  last: boolean;
  administer: boolean;
  errorAt: (path: string) => string | undefined;
  onChange: (patch: Partial<RuleDraft>) => void;
  onMove: (by: number) => void;
  onRemove: () => void;
}

/** One rule of the policy editor: its action, what it matches, its velocity window and, for REQUIRE_APPROVAL, its approver groups. */
export function RuleFields({ rule, index: i, last, administer, errorAt, onChange: update, onMove, onRemove }: RuleFieldsProps) {
  // A REQUIRE_APPROVAL rule starts with one group to pick; any other action names none (the API refuses them).
  const changeAction = (action: PolicyAction) =>
    update({ action, approvals: action === "REQUIRE_APPROVAL" ? (rule.approvals.length ? rule.approvals : [emptyApproval()]) : [] });
  return (
    <fieldset className="panel" data-testid="policy-rule">
      <legend>
        Rule {i + 1}
        {rule.name ? `: ${rule.name}` : ""}
      </legend>
      <div className="row">
        <TextField label="Rule ID" value={rule.id} onChange={(e) => update({ id: e.target.value })} error={errorAt(`rules.${i}.id`)} />
        <TextField
          label="Rule name"
          value={rule.name}
          onChange={(e) => update({ name: e.target.value })}
          error={errorAt(`rules.${i}.name`)}
        />
        <SelectField label="Action" value={rule.action} onChange={(e) => changeAction(e.target.value as PolicyAction)}>
          <option value="BLOCK">BLOCK</option>
          <option value="ALLOW">ALLOW</option>
          <option value="REQUIRE_APPROVAL">REQUIRE_APPROVAL</option>
        </SelectField>
      </div>
      <CheckboxGroup
        legend="Networks"
        options={NETWORKS.map((n) => ({ value: n, label: n }))}
        value={rule.networkCodes}
        onChange={(v) => update({ networkCodes: v })}
        error={errorAt(`rules.${i}.match.networkCodes`)}
        hint="None ticked: any network."
      />
      <div className="row">
        <SelectField
          label="Destination"
          value={rule.destination}
          onChange={(e) => update({ destination: e.target.value as RuleDraft["destination"] })}
          error={errorAt(`rules.${i}.match.destination`)}
          hint={
            <>
              The <a href="/address-book">address book</a>&apos;s ACTIVE entries.
            </>
          }
        >
          <option value="">Any destination</option>
          {POLICY_DESTINATION_MATCHES.map((m) => (
            <option key={m} value={m}>
              {m}: {POLICY_DESTINATION_NAMES[m]}
            </option>
          ))}
        </SelectField>
        <TextAreaField
          label="Destination addresses"
          value={rule.destinationAddresses}
          onChange={(e) => update({ destinationAddresses: e.target.value })}
          error={errorAt(`rules.${i}.match.destinationAddresses`)}
          hint="One a line; empty: any destination."
          spellCheck={false}
        />
        <TextField
          label="Amount above"
          value={rule.amountAbove}
          onChange={(e) => update({ amountAbove: e.target.value })}
          inputMode="numeric"
          error={errorAt(`rules.${i}.match.amountAbove`)}
          hint="Base units; empty: any amount."
        />
      </div>
      <div className="row">
        <TextAreaField
          label="Source wallet IDs"
          value={rule.sourceWalletIds}
          onChange={(e) => update({ sourceWalletIds: e.target.value })}
          error={errorAt(`rules.${i}.match.sourceWalletIds`)}
          hint="One a line; empty: any wallet."
          spellCheck={false}
        />
        <TextAreaField
          label="Source vault IDs"
          value={rule.sourceVaultIds}
          onChange={(e) => update({ sourceVaultIds: e.target.value })}
          error={errorAt(`rules.${i}.match.sourceVaultIds`)}
          hint="One a line; empty: any vault."
          spellCheck={false}
        />
        <TextAreaField
          label="Asset IDs"
          value={rule.assetIds}
          onChange={(e) => update({ assetIds: e.target.value })}
          error={errorAt(`rules.${i}.match.assetIds`)}
          hint="One a line; empty: any asset."
          spellCheck={false}
        />
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={rule.velocity} onChange={(e) => update({ velocity: e.target.checked })} /> Only when the amount
        moved over a time window is above a limit (velocity)
      </label>
      {rule.velocity && (
        <div className="row">
          <TextField
            label="Velocity limit"
            value={rule.velocityAmount}
            onChange={(e) => update({ velocityAmount: e.target.value })}
            inputMode="numeric"
            error={errorAt(`rules.${i}.velocity.amount`)}
            hint="Base units, this transfer included."
          />
          <TextField
            label="Window (seconds)"
            type="number"
            min={1}
            value={rule.velocityWindowSeconds}
            onChange={(e) => update({ velocityWindowSeconds: e.target.value })}
            error={errorAt(`rules.${i}.velocity.windowSeconds`)}
          />
          <SelectField
            label="Counted per"
            value={rule.velocityScope}
            onChange={(e) => update({ velocityScope: e.target.value as RuleDraft["velocityScope"] })}
          >
            <option value="WALLET">WALLET (source wallet)</option>
            <option value="VAULT">VAULT (source vault)</option>
            <option value="TENANT">TENANT (whole organization)</option>
          </SelectField>
        </div>
      )}
      {rule.action === "REQUIRE_APPROVAL" && (
        <ApprovalRequirements
          rule={i}
          approvals={rule.approvals}
          onChange={(approvals) => update({ approvals })}
          errorAt={errorAt}
          editable={administer}
        />
      )}
      {administer && (
        <div className="actions">
          <button type="button" className="secondary small" onClick={() => onMove(-1)} disabled={i === 0}>
            Move rule {i + 1} up
          </button>
          <button type="button" className="secondary small" onClick={() => onMove(1)} disabled={last}>
            Move rule {i + 1} down
          </button>
          <button type="button" className="danger small" onClick={onRemove}>
            Remove rule {i + 1}
          </button>
        </div>
      )}
    </fieldset>
  );
}
