import { z } from "zod";
import { text, timestamp, uuid } from "../../schemas/common";
import { EXAMPLE } from "../../openapi-examples";

/** An approver group (CONTRACT §15). */
export const approverGroupRecord = z.object({
  id: uuid,
  name: z.string(),
  memberIds: z.array(uuid).meta({ description: "the members' user ids, oldest membership first" }),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const approverGroupName = text().trim().min(1).max(200).meta({ description: "plain text, 1–200 characters" });
export const approverGroupMemberIds = z
  .array(uuid)
  .max(1000)
  .meta({ description: "user ids of the tenant's members (not removed); a repeated id counts once" });
export const approverGroupIdParam = z.uuid().meta({ description: "the approver group's id" });

export const EXAMPLE_APPROVER_GROUP = {
  id: "0194f2c4-d176-7384-af90-718293a4b5c6",
  name: "Treasury approvers",
  memberIds: [EXAMPLE.userId, "0194f2c4-e287-7495-b0a1-8293a4b5c6d7"],
  createdAt: EXAMPLE.createdAt,
  updatedAt: EXAMPLE.createdAt,
} as const;

/** The 409 a change answers when the current policy still needs the group, as its description says it. */
export const POLICY_NEEDS_GROUP =
  "409 `CONFLICT` when a rule of the current policy needs the group (the message names the rule): change the policy first.";
