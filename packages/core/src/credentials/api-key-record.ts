import type { schema } from "@qc/db";

type Row = typeof schema.apiKeys.$inferSelect;

/** What a key looks like from outside: never the secret or its hash. */
export interface ApiKeyRecord {
  keyId: string;
  tenantId: string;
  label: string;
  /** ACTIVE, ROTATING (rotated, inside its grace period), ROTATED, EXPIRED or REVOKED. */
  status: "ACTIVE" | "ROTATING" | "ROTATED" | "EXPIRED" | "REVOKED";
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  exposed: boolean;
}

export function toApiKeyRecord(row: Row, now: Date): ApiKeyRecord {
  let status: ApiKeyRecord["status"] = "ACTIVE";
  if (row.status === "REVOKED") status = "REVOKED";
  else if (row.graceEndsAt) status = row.graceEndsAt <= now ? "ROTATED" : "ROTATING";
  else if (row.expiresAt && row.expiresAt <= now) status = "EXPIRED";
  return {
    keyId: row.keyId,
    tenantId: row.tenantId,
    label: row.label,
    status,
    scopes: row.scopes,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    exposed: row.exposedAt !== null,
  };
}
