import { vaultMetadataErrors } from "@qc/core";
import { VAULT_STATUSES } from "@qc/domain";
import { z } from "zod";
import { multilineText, networkCode, text, timestamp } from "../../schemas/common";

export const vaultStatus = z.enum(VAULT_STATUSES);

/** CONTRACT §4: at most 50 keys, keys ≤ 40 characters, values ≤ 500 characters, strings only. */
export const vaultMetadata = z
  .record(text(), multilineText())
  .superRefine((metadata, ctx) => {
    for (const field of vaultMetadataErrors(metadata)) {
      const path = field.path === "metadata" ? [] : [field.path.slice("metadata.".length)];
      ctx.addIssue({ code: "custom", message: field.message, path });
    }
  })
  .meta({ description: "string keys (≤ 40 chars) to string values (≤ 500 chars), at most 50 keys", example: { desk: "treasury" } });

export const vaultRecord = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  networkCode,
  name: z.string(),
  status: vaultStatus,
  metadata: z.record(z.string(), z.string()),
  createdAt: timestamp,
  updatedAt: timestamp,
});
