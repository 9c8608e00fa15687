"use client";

import type { PolicyAction } from "@qc/domain";
import type { ReactNode } from "react";
import { isAddress, isUuid, type PickOption } from "../../../src/dashboard/pick";
import {
  amountInBaseUnits,
  amountUnit,
  amountUnitHint,
  emptyApproval,
  type AmountUnit,
  type RuleDraft,
  type UnitAsset,
} from "../../../src/dashboard/policy-draft";
import { NETWORKS, NETWORK_NAMES, POLICY_DESTINATION_MATCHES, POLICY_DESTINATION_NAMES } from "../../../src/dashboard/vocabulary";
import { CheckboxGroup, SelectField, TextField } from "../../_components/field";
import { PickMany } from "../../_components/pickers";
import { ApprovalRequirements } from "./approval-requirements";

/** What a rule's pickers offer, read once for the whole editor. */
export interface RulePickerOptions {
  vaults: readonly PickOption[];
  wallets: readonly PickOption[];
  assets: readonly PickOption[];
  /** The address book's ACTIVE entries, by label; the value is the address. */
  addresses: readonly PickOption[];
  /** The assets' decimals, for the rule's amount unit. */
  unitAssets: readonly UnitAsset[];
}

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
  options: RulePickerOptions;
}

/** A rule's lists, each a picker over its options; a pasted value of the right shape is taken as is. */
interface RuleList {
  key: "destinationAddresses" | "sourceWalletIds" | "sourceVaultIds" | "assetIds";
  legend: string;
  noun: string;
  options: "addresses" | "wallets" | "vaults" | "assets";
  accepts: (value: string) => boolean;
  anyMeans: string;
  hint?: string;
}

const RULE_LISTS: readonly RuleList[] = [
  {
    key: "destinationAddresses",
    legend: "Destination addresses",
    noun: "address",
    options: "addresses",
    accepts: isAddress,
    anyMeans: "any destination",
    hint: "An address-book entry by its label, or a pasted address (40 hex digits, optional 0x).",
  },
  { key: "sourceWalletIds", legend: "Source wallets", noun: "wallet", options: "wallets", accepts: isUuid, anyMeans: "any wallet" },
  { key: "sourceVaultIds", legend: "Source vaults", noun: "vault", options: "vaults", accepts: isUuid, anyMeans: "any vault" },
  {
    key: "assetIds",
    legend: "Assets",
    noun: "asset",
    options: "assets",
    accepts: isUuid,
    anyMeans: "any asset",
    hint: "By symbol or name. The amounts below are in the chosen asset's units.",
  },
];

/** An amount field's hint: the unit and why, then what was typed in base units (exact, on hover too). */
function amountHint(typed: string, unit: AmountUnit, emptyMeans?: string): ReactNode {
  const parsed = typed.trim() ? amountInBaseUnits(typed, unit) : undefined;
  return (
    <>
      {amountUnitHint(unit)}
      {emptyMeans && ` Empty: ${emptyMeans}.`}
      {parsed?.ok && unit.basis !== "BASE_UNITS" && (
        <>
          {" "}
          {typed.trim()} {unit.symbol} ={" "}
          <span className="mono" title={`${parsed.raw} base units`} data-testid="amount-base-units">
            {parsed.raw}
          </span>{" "}
          base units.
        </>
      )}
    </>
  );
}

/** One rule of the policy editor: its action, what it matches, its velocity window and, for REQUIRE_APPROVAL, its approver groups. */
export function RuleFields({ rule, index: i, last, administer, errorAt, onChange: update, onMove, onRemove, options }: RuleFieldsProps) {
  const unit = amountUnit(rule, options.unitAssets);
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
        options={NETWORKS.map((n) => ({ value: n, label: NETWORK_NAMES[n] }))}
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
      </div>
      <div className="row">
        {RULE_LISTS.map((list) => (
          <PickMany
            key={list.key}
            legend={list.legend}
            noun={list.noun}
            options={options[list.options]}
            value={rule[list.key]}
            onChange={(next) => update({ [list.key]: next })}
            accepts={list.accepts}
            anyMeans={list.anyMeans}
            error={errorAt(`rules.${i}.match.${list.key}`)}
            hint={list.hint}
            disabled={!administer}
          />
        ))}
      </div>
      <TextField
        label="Amount above"
        value={rule.amountAbove}
        onChange={(e) => update({ amountAbove: e.target.value })}
        inputMode="decimal"
        autoComplete="off"
        data-unit={unit.symbol}
        error={errorAt(`rules.${i}.match.amountAbove`)}
        hint={amountHint(rule.amountAbove, unit, "any amount")}
      />
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
            inputMode="decimal"
            autoComplete="off"
            error={errorAt(`rules.${i}.velocity.amount`)}
            hint={<>This transfer included. {amountHint(rule.velocityAmount, unit)}</>}
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
