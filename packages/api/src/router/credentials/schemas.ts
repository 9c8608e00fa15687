import { API_KEY_STATUSES } from "@qc/domain";
import { z } from "zod";
import { scope, timestamp } from "../../schemas/common";

export const apiKeyRecord = z.object({
  keyId: z.string().regex(/^qc_[0-9a-f]{32}$/),
  tenantId: z.uuid(),
  label: z.string(),
  status: z.enum(API_KEY_STATUSES),
  scopes: z.array(scope),
  createdAt: timestamp,
  expiresAt: timestamp.nullable(),
  lastUsedAt: timestamp.nullable(),
  exposed: z.boolean().meta({ description: "the key was sent over plain HTTP and must be rotated" }),
  createdByUserId: z.uuid().meta({
    description:
      "the member who created the key: it acts with that member's current role, and only that member or an OWNER or ADMIN may rotate or revoke it",
  }),
});
