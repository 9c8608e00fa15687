import type { PolicyAction, PolicyDestinationMatch } from "@qc/domain";
import type { NetworkCode, Policy, PolicyDocumentInput } from "./router-types";

/** One rule as the editor holds it: lists as text, one value a line. */
export interface RuleDraft {
  id: string;
  name: string;
  action: PolicyAction;
  networkCodes: NetworkCode[];
  sourceVaultIds: string;
  sourceWalletIds: string;
  assetIds: string;
  destinationAddresses: string;
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
    sourceVaultIds: "",
    sourceWalletIds: "",
    assetIds: "",
    destinationAddresses: "",
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

const lines = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((v) => v.trim())
    .filter(Boolean);

export function toDrafts(policy: Policy): RuleDraft[] {
  return policy.rules.map((rule) => ({
    id: rule.id,
    name: rule.name,
    action: rule.action,
    networkCodes: rule.match.networkCodes ?? [],
    sourceVaultIds: (rule.match.sourceVaultIds ?? []).join("\n"),
    sourceWalletIds: (rule.match.sourceWalletIds ?? []).join("\n"),
    assetIds: (rule.match.assetIds ?? []).join("\n"),
    destinationAddresses: (rule.match.destinationAddresses ?? []).join("\n"),
    destination: rule.match.destination ?? "",
    amountAbove: rule.match.amountAbove ?? "",
    velocity: rule.velocity !== undefined,
    velocityAmount: rule.velocity?.amount ?? "",
    velocityWindowSeconds: String(rule.velocity?.windowSeconds ?? 86400),
    velocityScope: rule.velocity?.scope ?? "WALLET",
    approvals: (rule.approvals ?? []).map((a) => ({ groupId: a.groupId, quorum: String(a.quorum) })),
  }));
}

/** The document PUT /v1/policies takes; empty lists and blank fields are left out (no condition). */
export function toDocument(defaultAction: PolicyAction, rules: RuleDraft[]): PolicyDocumentInput {
  return {
    defaultAction,
    rules: rules.map((rule) => {
      const match: Record<string, unknown> = {};
      if (rule.networkCodes.length) match.networkCodes = rule.networkCodes;
      for (const key of ["sourceVaultIds", "sourceWalletIds", "assetIds", "destinationAddresses"] as const) {
        const values = lines(rule[key]);
        if (values.length) match[key] = values;
      }
      if (rule.destination) match.destination = rule.destination;
      if (rule.amountAbove.trim()) match.amountAbove = rule.amountAbove.trim();
      return {
        id: rule.id.trim(),
        name: rule.name.trim(),
        action: rule.action,
        match,
        ...(rule.velocity
          ? {
              velocity: {
                amount: rule.velocityAmount.trim(),
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

const AMOUNT = /^(0|[1-9][0-9]{0,77})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ADDRESS = /^(0x)?[0-9a-fA-F]{40}$/;

/**
 * What can be told before asking the service, keyed like the service's own field errors
 * (`rules.0.id`), so both show in the same place. The service checks again (EIP-55 checksums,
 * limits) and its answer wins.
 */
export function checkDraft(rules: RuleDraft[]): Record<string, string> {
  const errors: Record<string, string> = {};
  const seen = new Set<string>();
  rules.forEach((rule, i) => {
    const at = (field: string) => `rules.${i}.${field}`;
    if (!/^[A-Za-z0-9._:-]{1,100}$/.test(rule.id.trim())) errors[at("id")] = "1 to 100 letters, digits and . _ : - only";
    else if (seen.has(rule.id.trim())) errors[at("id")] = `duplicate rule id "${rule.id.trim()}"`;
    seen.add(rule.id.trim());
    if (!rule.name.trim()) errors[at("name")] = "required";
    if (rule.amountAbove.trim() && !AMOUNT.test(rule.amountAbove.trim()))
      errors[at("match.amountAbove")] = "base units: a whole number without sign, point or exponent";
    for (const key of ["sourceVaultIds", "sourceWalletIds", "assetIds"] as const) {
      const bad = lines(rule[key]).find((v) => !UUID.test(v));
      if (bad) errors[at(`match.${key}`)] = `not an id: ${bad}`;
    }
    const badAddress = lines(rule.destinationAddresses).find((v) => !ADDRESS.test(v));
    if (badAddress) errors[at("match.destinationAddresses")] = `not an address (40 hex digits, optional 0x): ${badAddress}`;
    if (rule.velocity) {
      if (!AMOUNT.test(rule.velocityAmount.trim())) errors[at("velocity.amount")] = "base units: a whole number";
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
    if (!UUID.test(approval.groupId)) errors[at(`approvals.${j}.groupId`)] = "pick an approver group";
    else if (picked.has(approval.groupId)) errors[at(`approvals.${j}.groupId`)] = "a group is listed once";
    picked.add(approval.groupId);
    if (!/^[1-9][0-9]{0,3}$/.test(approval.quorum.trim())) errors[at(`approvals.${j}.quorum`)] = "a whole number, 1 or more";
  });
  return errors;
}
