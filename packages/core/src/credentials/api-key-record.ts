import type { ApiKeyRow as Row } from "@qc/db/queries";
import type { ApiKeyStatus } from "@qc/domain";
import { SCOPES, type Scope } from "../auth/scopes";

/** What a key looks like from outside: never the secret or its hash. */
export interface ApiKeyRecord {
  keyId: string;
  tenantId: string;
  label: string;
  status: ApiKeyStatus;
  scopes: Scope[];
  createdAt: string;
  /** When the key stops working: its own expiry or, once rotated, the end of the grace period, whichever comes first. */
  expiresAt: string | null;
  lastUsedAt: string | null;
  exposed: boolean;
  /** The member who created the key; it acts with that member's current role (CONTRACT §14). */
  createdByUserId: string;
}

function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * The column is plain `text[]`, written only from validated input. An unknown value means the
 * row was changed behind the service's back; dropping it could turn a narrow key into one with
 * no scopes, which is full access, so it is an error instead.
 */
function storedScopes(row: Row): Scope[] {
  const scopes = row.scopes.filter(isScope);
  if (scopes.length !== row.scopes.length) {
    throw new Error(`api key ${row.keyId} holds unknown scopes: ${row.scopes.filter((s) => !isScope(s)).join(", ")}`);
  }
  return scopes;
}

/** The earlier of two optional instants. */
function earliest(a: Date | null, b: Date | null): Date | null {
  if (!a || !b) return a ?? b;
  return a <= b ? a : b;
}

/**
 * Status and expiry as the Authenticator will judge the key (it refuses a rotated key whose
 * grace has ended as ROTATED before it looks at the key's own expiry), so the list never shows
 * a key as usable when a request with it would be refused.
 */
export function toApiKeyRecord(row: Row, now: Date): ApiKeyRecord {
  let status: ApiKeyRecord["status"] = "ACTIVE";
  if (row.status === "REVOKED") status = "REVOKED";
  else if (row.graceEndsAt && row.graceEndsAt <= now) status = "ROTATED";
  else if (row.expiresAt && row.expiresAt <= now) status = "EXPIRED";
  else if (row.graceEndsAt) status = "ROTATING";
  return {
    keyId: row.keyId,
    tenantId: row.tenantId,
    label: row.label,
    status,
    scopes: storedScopes(row),
    createdAt: row.createdAt.toISOString(),
    expiresAt: earliest(row.expiresAt, row.graceEndsAt)?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    exposed: row.exposedAt !== null,
    createdByUserId: row.createdByUserId,
  };
}
