import { POLICY_ACTIONS } from "@qc/domain";
import { z } from "zod";
import { text } from "../../schemas/common";

export const policyDecision = z.object({
  decision: z.enum(POLICY_ACTIONS),
  ruleId: z.string().nullable().meta({ description: "the first rule that matched; null for the default action" }),
  ruleName: z.string().nullable(),
  policyVersion: z.number().int().nullable().meta({ description: "the version decided with; null while no policy is set" }),
  reason: z.string().meta({ description: "what a BLOCKED transfer would carry as statusReason" }),
  velocitySum: z.string().optional().meta({ description: "for a velocity rule that matched: the window's sum, this transfer included" }),
  approvals: z
    .array(z.object({ groupId: z.uuid(), quorum: z.number().int() }))
    .optional()
    .meta({ description: "REQUIRE_APPROVAL only: the approver groups that must each reach their quorum" }),
  destinationLabel: z.string().nullable().optional().meta({
    description:
      "when a rule matches on `destination`: the label of the destination's ACTIVE address-book entry, or null when it is not in the book",
  }),
});

export const denylistEntry = z.object({
  address: z.string().max(200).meta({
    description: "40 hex digits with optional 0x, any case (mixed case must pass EIP-55); answered lower-case",
    example: "0x7a3b5c9d1e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b",
  }),
  label: text().max(200).default(""),
});

export const denylist = z.object({ entries: z.array(denylistEntry) });
