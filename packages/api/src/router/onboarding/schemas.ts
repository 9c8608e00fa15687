import { z } from "zod";
import { timestamp, uuid } from "../../schemas/common";

export const kycCaseRecord = z.object({
  tenantId: uuid,
  status: z.enum(["PENDING", "APPROVED", "REJECTED"]),
  provider: z.string(),
  reference: z.string(),
  startedAt: timestamp,
  decidedAt: timestamp.nullable(),
  reason: z.string().nullable(),
});

export const tenantStatus = z.enum(["PENDING_VERIFICATION", "VERIFIED", "REJECTED"]);
