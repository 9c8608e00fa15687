import type { Database } from "@qc/db";
import { findApiKeyCredential, recordApiKeysLastUsed } from "@qc/db/queries";
import type { MemberRole, StoredApiKeyStatus } from "@qc/domain";
import { AppError } from "../errors";
import type { Logger } from "../logger";
import type { CredentialCache } from "./credential-cache";
import type { Verification } from "./principal";
import type { Scope } from "./scopes";
import { digestsEqual, hashApiSecret } from "./tokens";

/** An API key as authentication needs it (cached: see CredentialCache). */
export interface ApiKeyCredential {
  tenantId: string;
  secretHash: string;
  scopes: Scope[];
  status: StoredApiKeyStatus;
  expiresAt: Date | null;
  graceEndsAt: Date | null;
  /** The member who created the key, whose current role it acts with (CONTRACT §14). */
  createdByUserId: string | null;
  role: MemberRole | null;
}

/** How often the keys' lastUsedAt times are written: one UPDATE per batch, not per request. */
const LAST_USED_FLUSH_MS = 10_000;

/**
 * API keys (`Bearer <keyId>:<secret>`): the key read through the cache, its secret checked by a
 * constant-time HMAC comparison, then its status and expiry; lastUsedAt recorded in batches.
 */
export class ApiKeyVerifier {
  private readonly lastUsed = new Map<string, Date>();
  private readonly flushTimer: NodeJS.Timeout;

  constructor(
    private readonly options: { db: Database; pepper: Buffer; now(): Date; log: Logger; cache: CredentialCache<ApiKeyCredential> },
  ) {
    this.flushTimer = setInterval(
      () => void this.flushLastUsed().catch((err: unknown) => options.log.error({ err }, "lastUsedAt flush failed")),
      LAST_USED_FLUSH_MS,
    );
    this.flushTimer.unref();
  }

  async verify(keyId: string, secret: string): Promise<Verification> {
    const key = await this.options.cache.get(keyId, async () => {
      const row = await findApiKeyCredential(this.options.db, { keyId });
      return row ? { ...row, scopes: row.scopes as Scope[] } : undefined;
    });
    const presented = hashApiSecret(this.options.pepper, secret);
    // The same comparison runs whether or not the key exists, so timing does not tell them apart.
    const matches = digestsEqual(presented, key?.secretHash ?? "0".repeat(64)) && key !== undefined;
    if (!key || !matches)
      return {
        failure: { reason: "bad_key_or_secret", counts: true, error: new AppError("UNAUTHENTICATED", "invalid credentials"), keyId },
      };
    const now = this.options.now();
    const refused = (reason: string, error: AppError): Verification => ({
      failure: { reason, counts: false, error, keyId, tenantId: key.tenantId },
    });
    if (key.status === "REVOKED") return refused("revoked", new AppError("CREDENTIAL_REVOKED", "credential revoked"));
    if (key.graceEndsAt && key.graceEndsAt <= now)
      return refused("rotated", new AppError("CREDENTIAL_ROTATED", "credential rotated and grace period expired"));
    if (key.expiresAt && key.expiresAt <= now) return refused("expired", new AppError("CREDENTIAL_EXPIRED", "credential expired"));
    this.lastUsed.set(keyId, now);
    return {
      principal: {
        kind: "api_key",
        tenantId: key.tenantId,
        scopes: key.scopes,
        role: key.role,
        keyId,
        ...(key.createdByUserId ? { userId: key.createdByUserId } : {}),
      },
    };
  }

  /** Writes the batched lastUsedAt values: one UPDATE for every key used since the last flush. */
  async flushLastUsed(): Promise<void> {
    if (this.lastUsed.size === 0) return;
    const batch = [...this.lastUsed.entries()];
    this.lastUsed.clear();
    await recordApiKeysLastUsed(
      this.options.db,
      batch.map(([keyId, usedAt]) => ({ keyId, usedAt })),
    );
  }

  async close(): Promise<void> {
    clearInterval(this.flushTimer);
    await this.flushLastUsed().catch(() => {});
  }
}
