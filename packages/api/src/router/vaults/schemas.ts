import { vaultMetadataErrors, type CustodyActor } from "@qc/core";
import { NETWORK_CODES, type NetworkCode } from "@qc/chain";
import { z } from "zod";
import { timestamp } from "../../schemas/common";
import type { Context } from "../../context";

export const networkCode = z.enum(NETWORK_CODES as [NetworkCode, ...NetworkCode[]]).meta({ description: "QUANTUM_MAINNET (20803) or QUANTUM_SANDBOX (20804)" });
export const vaultStatus = z.enum(["ACTIVE", "ARCHIVED"]);

/** CONTRACT §4: at most 50 keys, keys ≤ 40 characters, values ≤ 500 characters, strings only. */
export const vaultMetadata = z
  .record(z.string(), z.string())
  .superRefine((metadata, ctx) => {
    for (const field of vaultMetadataErrors(metadata)) {
      const path = field.path === "metadata" ? [] : [field.path.slice("metadata.".length)];
      ctx.addIssue({ code: "custom", message: field.message, path });
    }
  })
  .meta({ description: "string keys (≤ 40 chars) to string values (≤ 500 chars), at most 50 keys", example: { desk: "treasury" } });

export const vaultIdParam = z.uuid().meta({ description: "the vault's id" });

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

/** The audit actor of a custody change: the API key, or the dashboard user. */
export function custodyActor(ctx: Context & { auth: NonNullable<Context["auth"]> }): CustodyActor {
  const id = ctx.auth.kind === "api_key" ? ctx.auth.keyId! : ctx.auth.userId!;
  return { type: ctx.auth.kind === "api_key" ? "api_key" : "user", id, requestId: ctx.request.requestId, ip: ctx.request.ip };
}
