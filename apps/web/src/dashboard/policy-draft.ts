import type { PolicyAction, PolicyDestinationMatch } from "@qc/domain";
import { formatUnits, parseUnits } from "./amounts";
import { isAddress, isUuid } from "./pick";
import type { Asset, NetworkCode, Policy, PolicyDocumentInput } from "./router-types";

/** One rule as the editor holds it: the lists picked, the amounts as typed in the rule's unit (see `amountUnit`). */
export interface RuleDraft {
  id: string;
  name: string;
  action: PolicyAction;
  networkCodes: NetworkCode[];
  sourceVaultIds: string[];
  sourceWalletIds: string[];
  assetIds: string[];
  destinationAddresses: string[];
  /** Whether the destination must be in the address book, must not be, or either (""; CONTRACT §16). */
  destination: "" | PolicyDestinationMatch;
  amountAbove: string;
  velocity: boolean;
  velocityAmount: string;
  velocityWindowSeconds: string;
  velocityScope: "WALLET" | "VAULT" | "TENANT";
  /** REQUIRE_APPROVAL only: the approver groups that must each reach their quorum (CONTRACT §15). */
  approvals: ApprovalDraft[];
}

/** One required approver group as the editor holds it: the group picked, the quorum as typed. */
export interface ApprovalDraft {
  groupId: string;
  quorum: string;
}

export function emptyRule(index: number): RuleDraft {
  return {
    id: `rule-${index + 1}`,
    name: "",
    action: "BLOCK",
    networkCodes: [],
    sourceVaultIds: [],
    sourceWalletIds: [],
    assetIds: [],
    destinationAddresses: [],
    destination: "",
    amountAbove: "",
    velocity: false,
    velocityAmount: "",
    velocityWindowSeconds: "86400",
    velocityScope: "WALLET",
    approvals: [],
  };
}

/** A new line of a REQUIRE_APPROVAL rule: no group picked yet, a quorum of one. */
export const emptyApproval = (): ApprovalDraft => ({ groupId: "", quorum: "1" });

/** What the editor needs of an asset to choose a rule's unit. */
export type UnitAsset = Pick<Asset, "id" | "symbol" | "decimals" | "kind" | "networkCode">;

/**
 * The unit a rule's amounts (`amountAbove`, the velocity limit) are typed and shown in. The API
 * compares them with each transfer's amount in base units of the transfer's own asset, so a
 * decimal amount is only meaningful for one number of decimals:
 * - the rule names assets that all have the same decimals: those (`ASSET`, e.g. "Q");
 * - the rule names no asset: the native asset's (`NATIVE`, Q, 18 decimals, of the rule's networks);
 *   a token with other decimals is then compared in its own base units;
 * - the rule names assets of different decimals, or one the tenant does not see: base units
 *   (`BASE_UNITS`, a whole number), the only reading that is the same for every asset.
 */
export interface AmountUnit {
  basis: "ASSET" | "NATIVE" | "BASE_UNITS";
  decimals: number;
  symbol: string;
}

const BASE_UNITS: AmountUnit = { basis: "BASE_UNITS", decimals: 0, symbol: "base units" };

export function amountUnit(rule: Pick<RuleDraft, "assetIds" | "networkCodes">, assets: readonly UnitAsset[]): AmountUnit {
  const named = rule.assetIds.length
    ? rule.assetIds.map((id) => assets.find((a) => a.id === id.toLowerCase()))
    : assets.filter((a) => a.kind === "NATIVE" && (rule.networkCodes.length === 0 || rule.networkCodes.includes(a.networkCode)));
  if (named.length === 0 || named.some((a) => a === undefined)) return BASE_UNITS;
  const found = named as UnitAsset[];
  if (new Set(found.map((a) => a.decimals)).size !== 1) return BASE_UNITS;
  const symbol = [...new Set(found.map((a) => a.symbol))].join(" / ");
  return { basis: rule.assetIds.length ? "ASSET" : "NATIVE", decimals: found[0]!.decimals, symbol };
}

/** The amount fields' hint: the unit, and why it is that one. */
export function amountUnitHint(unit: AmountUnit): string {
  if (unit.basis === "ASSET") return `In ${unit.symbol} (${unit.decimals} decimals), e.g. 1.5.`;
  if (unit.basis === "NATIVE")
    return `No asset chosen: in ${unit.symbol}, the native asset (${unit.decimals} decimals); a token with other decimals is compared in its own base units, so choose the asset for a token rule.`;
  return "The chosen assets have different decimals (or one is unknown): in base units of each transfer's asset, a whole number.";
}

/** A stored base-unit amount as the editor shows it. */
const shown = (raw: string | undefined, unit: AmountUnit) => (raw === undefined ? "" : formatUnits(raw, unit.decimals));

/** A typed amount as base units, or why it cannot be one. */
export function amountInBaseUnits(typed: string, unit: AmountUnit): { ok: true; raw: string } | { ok: false; message: string } {
  const parsed = parseUnits(typed, unit.decimals);
  if (parsed.ok) return parsed;
  if (unit.basis === "BASE_UNITS") return { ok: false, message: "base units: a whole number without sign, point or exponent" };
  return { ok: false, message: `in ${unit.symbol}: ${parsed.message}` };
}

export function toDrafts(policy: Policy, assets: readonly UnitAsset[]): RuleDraft[] {
  return policy.rules.map((rule) => {
    const picked = { assetIds: rule.match.assetIds ?? [], networkCodes: rule.match.networkCodes ?? [] };
    const unit = amountUnit(picked, assets);
    return {
      id: rule.id,
      name: rule.name,
      action: rule.action,
      ...picked,
      sourceVaultIds: rule.match.sourceVaultIds ?? [],
      sourceWalletIds: rule.match.sourceWalletIds ?? [],
      destinationAddresses: rule.match.destinationAddresses ?? [],
      destination: rule.match.destination ?? "",
      amountAbove: shown(rule.match.amountAbove, unit),
      velocity: rule.velocity !== undefined,
      velocityAmount: shown(rule.velocity?.amount, unit),
      velocityWindowSeconds: String(rule.velocity?.windowSeconds ?? 86400),
      velocityScope: rule.velocity?.scope ?? "WALLET",
      approvals: (rule.approvals ?? []).map((a) => ({ groupId: a.groupId, quorum: String(a.quorum) })),
    };
  });
}

/** A typed amount in base units; one that does not parse (`checkDraft` said so first) is sent as typed, for the service to refuse. */
const raw = (typed: string, unit: AmountUnit) => {
  const parsed = amountInBaseUnits(typed, unit);
  return parsed.ok ? parsed.raw : typed.trim();
};

/** The document PUT /v1/policies takes; empty lists and blank fields are left out (no condition). */
export function toDocument(defaultAction: PolicyAction, rules: RuleDraft[], assets: readonly UnitAsset[]): PolicyDocumentInput {
  return {
    defaultAction,
    rules: rules.map((rule) => {
      const unit = amountUnit(rule, assets);
      const match: Record<string, unknown> = {};
      if (rule.networkCodes.length) match.networkCodes = rule.networkCodes;
      for (const key of ["sourceVaultIds", "sourceWalletIds", "assetIds", "destinationAddresses"] as const) {
        const values = rule[key].map((v) => v.trim()).filter(Boolean);
        if (values.length) match[key] = values;
      }
      if (rule.destination) match.destination = rule.destination;
      if (rule.amountAbove.trim()) match.amountAbove = raw(rule.amountAbove, unit);
      return {
        id: rule.id.trim(),
        name: rule.name.trim(),
        action: rule.action,
        match,
        ...(rule.velocity
          ? {
              velocity: {
                amount: raw(rule.velocityAmount, unit),
                windowSeconds: Number(rule.velocityWindowSeconds),
                scope: rule.velocityScope,
              },
            }
          : {}),
        ...(rule.action === "REQUIRE_APPROVAL"
          ? { approvals: rule.approvals.map((a) => ({ groupId: a.groupId, quorum: Number(a.quorum) })) }
          : {}),
      };
    }),
  } as PolicyDocumentInput;
}

/**
 * What can be told before asking the service, keyed like the service's own field errors
 * (`rules.0.id`), so both show in the same place. The service checks again (EIP-55 checksums,
 * limits) and its answer wins.
 */
export function checkDraft(rules: RuleDraft[], assets: readonly UnitAsset[]): Record<string, string> {
  const errors: Record<string, string> = {};
  const seen = new Set<string>();
  rules.forEach((rule, i) => {
    const at = (field: string) => `rules.${i}.${field}`;
    if (!/^[A-Za-z0-9._:-]{1,100}$/.test(rule.id.trim())) errors[at("id")] = "1 to 100 letters, digits and . _ : - only";
    else if (seen.has(rule.id.trim())) errors[at("id")] = `duplicate rule id "${rule.id.trim()}"`;
    seen.add(rule.id.trim());
    if (!rule.name.trim()) errors[at("name")] = "required";
    const unit = amountUnit(rule, assets);
    const amountAbove = rule.amountAbove.trim() ? amountInBaseUnits(rule.amountAbove, unit) : undefined;
    if (amountAbove && !amountAbove.ok) errors[at("match.amountAbove")] = amountAbove.message;
    for (const key of ["sourceVaultIds", "sourceWalletIds", "assetIds"] as const) {
      const bad = rule[key].find((v) => !isUuid(v.trim()));
      if (bad !== undefined) errors[at(`match.${key}`)] = `not an id: ${bad}`;
    }
    const badAddress = rule.destinationAddresses.find((v) => !isAddress(v.trim()));
    if (badAddress !== undefined) errors[at("match.destinationAddresses")] = `not an address (40 hex digits, optional 0x): ${badAddress}`;
    if (rule.velocity) {
      const limit = amountInBaseUnits(rule.velocityAmount, unit);
      if (!limit.ok) errors[at("velocity.amount")] = limit.message;
      const window = Number(rule.velocityWindowSeconds);
      if (!Number.isInteger(window) || window < 1 || window > 31 * 86_400)
        errors[at("velocity.windowSeconds")] = "1 to 2678400 seconds (31 days)";
    }
    if (rule.action === "REQUIRE_APPROVAL") Object.assign(errors, checkApprovals(rule.approvals, at));
  });
  return errors;
}

/** A REQUIRE_APPROVAL rule's groups: at least one, each picked once, each with a whole quorum of 1 or more. */
function checkApprovals(approvals: ApprovalDraft[], at: (field: string) => string): Record<string, string> {
  const errors: Record<string, string> = {};
  if (approvals.length === 0) errors[at("approvals")] = "name at least one approver group";
  const picked = new Set<string>();
  approvals.forEach((approval, j) => {
    if (!isUuid(approval.groupId)) errors[at(`approvals.${j}.groupId`)] = "pick an approver group";
    else if (picked.has(approval.groupId)) errors[at(`approvals.${j}.groupId`)] = "a group is listed once";
    picked.add(approval.groupId);
    if (!/^[1-9][0-9]{0,3}$/.test(approval.quorum.trim())) errors[at(`approvals.${j}.quorum`)] = "a whole number, 1 or more";
  });
  return errors;
}
