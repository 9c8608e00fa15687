import { MEMBER_ROLES } from "@qc/domain";
import { z } from "zod";
import { timestamp, uuid } from "../../schemas/common";
import { EXAMPLE } from "../../openapi-examples";

export const memberRole = z.enum(MEMBER_ROLES);

/** A member (CONTRACT §14). */
export const memberRecord = z.object({
  userId: uuid,
  email: z.string(),
  name: z.string().nullable(),
  role: memberRole,
  status: z.literal("ACTIVE"),
  passkeys: z.number().int().min(0).meta({ description: "how many passkeys the member has registered" }),
  approverGroupIds: z.array(uuid),
  createdAt: timestamp,
});

export const EXAMPLE_MEMBER = {
  userId: EXAMPLE.userId,
  email: "alice@example.com",
  name: "Alice Martin",
  role: "OWNER",
  status: "ACTIVE",
  passkeys: 0,
  approverGroupIds: [],
  createdAt: EXAMPLE.createdAt,
} as const;
