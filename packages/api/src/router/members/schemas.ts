import { INVITATION_STATUSES, MEMBER_ROLES } from "@qc/domain";
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

/** An invitation (CONTRACT §14): PENDING until accepted or revoked, EXPIRED once its 7 days are over. */
export const invitationRecord = z.object({
  id: uuid,
  email: z.string(),
  role: memberRole,
  status: z.enum(INVITATION_STATUSES),
  expiresAt: timestamp,
  createdAt: timestamp,
});

export const EXAMPLE_INVITATION = {
  id: "0194f2c4-cf65-7273-9e8f-60718293a4b5",
  email: "bob@example.com",
  role: "INITIATOR",
  status: "PENDING",
  expiresAt: "2026-11-28T10:00:00.000Z",
  createdAt: EXAMPLE.createdAt,
} as const;
