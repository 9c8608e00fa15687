import { parseAddress } from "@qc/chain";
import { DEFAULT_POLICY_ACTIONS, POLICY_ACTIONS, POLICY_DESTINATION_MATCHES } from "@qc/domain";
import { z } from "zod";
import { amountSchema, networkCodeSchema, timestampSchema } from "../records/record-schemas";

// Names end up in statusReason, webhooks and the dashboard: no control characters, no lone surrogates.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const hasControlCharacter = (value: string) => [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
const plainText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((v) => !LONE_SURROGATE.test(v) && !hasControlCharacter(v), "must be well-formed text without control characters");

/** Destination address in any accepted input form (CONTRACT §1), stored canonical. */
const destinationAddress = z.string().transform((value, ctx) => {
  try {
    return parseAddress(value) as string;
  } catch {
    ctx.addIssue({ code: "custom", message: "not an address: 40 hex digits with optional 0x; mixed case must pass EIP-55" });
    return z.NEVER;
  }
});

const policyAction = z.enum(POLICY_ACTIONS);
const defaultPolicyAction = z.enum(DEFAULT_POLICY_ACTIONS);

/** CONTRACT §15: one approver group a REQUIRE_APPROVAL rule needs, and how many of its members must approve. */
export const approvalRequirementSchema = z
  .object({
    groupId: z.uuid(),
    quorum: z.number().int().min(1).max(1000),
  })
  .strict();
/** CONTRACT §16: whether the rule matches destinations in the tenant's address book, or those not in it. */
const destinationMatch = z.enum(POLICY_DESTINATION_MATCHES).meta({
  description:
    "ADDRESS_BOOK: the destination has an ACTIVE address-book entry on the transfer's network (its `activatesAt` " +
    "passed, not removed) whose `assetIds`, when given, include the transfer's asset; NOT_ADDRESS_BOOK: it has none.",
});
/** Whose transfers a velocity window sums: the source wallet's, its vault's or the whole tenant's. */
const velocityScope = z.enum(["WALLET", "VAULT", "TENANT"]);

export const policyMatchSchema = z
  .object({
    networkCodes: z.array(networkCodeSchema).min(1).max(2).optional(),
    sourceVaultIds: z.array(z.uuid()).min(1).max(1000).optional(),
    sourceWalletIds: z.array(z.uuid()).min(1).max(1000).optional(),
    assetIds: z.array(z.uuid()).min(1).max(1000).optional(),
    destinationAddresses: z.array(destinationAddress).min(1).max(10_000).optional(),
    /** Matches amounts strictly above this (raw units of the transfer's asset). */
    amountAbove: amountSchema.optional(),
    destination: destinationMatch.optional(),
  })
  .strict()
  .meta({ description: "All given conditions must hold (AND); a list matches any of its values. An empty match matches every transfer." });

export const policyVelocitySchema = z
  .object({
    /** The rule applies when the window's sum, this transfer included, is above this. */
    amount: amountSchema,
    windowSeconds: z
      .number()
      .int()
      .min(1)
      .max(31 * 86_400),
    scope: velocityScope,
  })
  .strict()
  .meta({
    description:
      "The rule applies only when the sum of the transfer's asset moved by the scope (source wallet, source vault, " +
      "or the whole tenant) over the last `windowSeconds`, this transfer included, is above `amount`. Blocked, " +
      "rejected, cancelled, expired and failed transfers do not count.",
  });

export const policyRuleSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[A-Za-z0-9._:-]+$/, "letters, digits and . _ : - only"),
    name: plainText(200),
    action: policyAction,
    match: policyMatchSchema.default({}),
    velocity: policyVelocitySchema.optional(),
    /** REQUIRE_APPROVAL only (and required there): every listed group must reach its quorum (CONTRACT §15). */
    approvals: z.array(approvalRequirementSchema).min(1).max(10).optional(),
  })
  .strict()
  .superRefine((rule, ctx) => {
    if (rule.action === "REQUIRE_APPROVAL" && !rule.approvals)
      ctx.addIssue({
        code: "custom",
        path: ["approvals"],
        message: "a REQUIRE_APPROVAL rule names its approver groups: [{groupId, quorum}]",
      });
    if (rule.action !== "REQUIRE_APPROVAL" && rule.approvals)
      ctx.addIssue({ code: "custom", path: ["approvals"], message: "only a REQUIRE_APPROVAL rule has approvals" });
    const groups = new Set<string>();
    rule.approvals?.forEach((requirement, index) => {
      if (groups.has(requirement.groupId))
        ctx.addIssue({ code: "custom", path: ["approvals", index, "groupId"], message: "a group is listed once" });
      groups.add(requirement.groupId);
    });
  });

/** CONTRACT §6: ordered rules, first match wins, `defaultAction` when none matches. */
export const policyDocumentSchema = z
  .object({
    defaultAction: defaultPolicyAction,
    rules: z.array(policyRuleSchema).max(200),
  })
  .strict()
  .superRefine((document, ctx) => {
    const seen = new Set<string>();
    document.rules.forEach((rule, index) => {
      if (seen.has(rule.id)) ctx.addIssue({ code: "custom", path: ["rules", index, "id"], message: `duplicate rule id "${rule.id}"` });
      seen.add(rule.id);
    });
  });

export type PolicyDocument = z.output<typeof policyDocumentSchema>;
export type PolicyDocumentInput = z.input<typeof policyDocumentSchema>;
export type PolicyRule = PolicyDocument["rules"][number];
export type PolicyVelocity = NonNullable<PolicyRule["velocity"]>;
export type ApprovalRequirement = z.output<typeof approvalRequirementSchema>;

/** The policy as the API shows it: the document plus its version (0 and null times: never set, everything allowed). */
export const policyRecordSchema = z.object({
  version: z.number().int().min(0).meta({ description: "Increases by one with every PUT; 0 while the tenant has never set a policy." }),
  defaultAction: defaultPolicyAction,
  rules: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      action: policyAction,
      match: z.object({
        networkCodes: z.array(networkCodeSchema).optional(),
        sourceVaultIds: z.array(z.uuid()).optional(),
        sourceWalletIds: z.array(z.uuid()).optional(),
        assetIds: z.array(z.uuid()).optional(),
        destinationAddresses: z.array(z.string()).optional(),
        amountAbove: amountSchema.optional(),
        destination: destinationMatch.optional(),
      }),
      velocity: z.object({ amount: amountSchema, windowSeconds: z.number().int(), scope: velocityScope }).optional(),
      approvals: z.array(z.object({ groupId: z.uuid(), quorum: z.number().int() })).optional(),
    }),
  ),
  updatedAt: timestampSchema.nullable(),
  updatedBy: z.string().nullable().meta({ description: "The API key id or user id that made this version." }),
});

export type PolicyRecord = z.infer<typeof policyRecordSchema>;
