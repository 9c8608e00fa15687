import { KYC_STATUSES, TENANT_STATUSES } from "@qc/domain";
import { z } from "zod";
import { timestamp, uuid } from "../../schemas/common";

export const kycCaseRecord = z.object({
  tenantId: uuid,
  status: z.enum(KYC_STATUSES),
  provider: z.string(),
  reference: z.string(),
  startedAt: timestamp,
  decidedAt: timestamp.nullable(),
  reason: z.string().nullable(),
});

export const tenantStatus = z.enum(TENANT_STATUSES);
