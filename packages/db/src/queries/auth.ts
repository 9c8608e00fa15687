import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../client";
import type { MemberRole } from "@qc/domain";
import { apiKeys, sessions, users } from "../schema/identity";
import { defineRead } from "../hot-path/define-query";
import { notRemoved } from "./identity";

/*
 * What authentication reads on every request: a key by its id (cached by the Authenticator), a
 * session by its token hash (the request names neither tenant; the row says which it is), and the
 * batched bookkeeping. The two reads are prepared statements (../hot-path). Each also reads the
 * current role of the member the credential acts for (CONTRACT §14): the session's user, the key's
 * creator; only a member of the credential's own tenant who was not removed counts (a left join, so that a credential
 * whose member is gone still reads, with no role).
 */

/** Sends `payload` on a LISTEN channel; inside a transaction PostgreSQL delivers it on commit. */
export async function notifyChannel(db: Executor, params: { channel: string; payload: string }): Promise<void> {
  await db.execute(sql`select pg_notify(${params.channel}, ${params.payload})`);
}

export interface ApiKeyCredentialRow {
  tenantId: string;
  secretHash: string;
  scopes: string[];
  status: "ACTIVE" | "REVOKED";
  expiresAt: Date | null;
  graceEndsAt: Date | null;
  /** The member who created the key; null for a key seeded by a tool. */
  createdByUserId: string | null;
  /** That member's current role; null without one. */
  role: MemberRole | null;
}

export async function findApiKeyCredential(db: Executor, params: { keyId: string }): Promise<ApiKeyCredentialRow | undefined> {
  const [row] = await findApiKeyRead.on(db).execute({ keyId: params.keyId });
  return row;
}
const findApiKeyRead = defineRead("qc_find_api_key", (db) =>
  db
    .select({
      tenantId: apiKeys.tenantId,
      secretHash: apiKeys.secretHash,
      scopes: apiKeys.scopes,
      status: apiKeys.status,
      expiresAt: apiKeys.expiresAt,
      graceEndsAt: apiKeys.graceEndsAt,
      createdByUserId: apiKeys.createdByUserId,
      role: users.role,
    })
    .from(apiKeys)
    .leftJoin(users, and(eq(users.id, apiKeys.createdByUserId), eq(users.tenantId, apiKeys.tenantId), notRemoved))
    .where(eq(apiKeys.keyId, sql.placeholder("keyId"))),
);

export interface SessionCredentialRow {
  id: string;
  userId: string;
  tenantId: string;
  expiresAt: Date;
  lastSeenAt: Date;
  /** The login: the absolute lifetime counts from here. */
  createdAt: Date;
  revokedAt: Date | null;
  /** The user's current role; null when the user is no member of the session's tenant. */
  role: MemberRole | null;
}

/** Every dashboard request reads its session: a prepared statement (../hot-path). */
export async function findSessionByTokenHash(db: Executor, params: { tokenHash: string }): Promise<SessionCredentialRow | undefined> {
  const [row] = await findSessionRead.on(db).execute({ tokenHash: params.tokenHash });
  return row;
}
const findSessionRead = defineRead("qc_find_session", (db) =>
  db
    .select({
      id: sessions.id,
      userId: sessions.userId,
      tenantId: sessions.tenantId,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
      createdAt: sessions.createdAt,
      revokedAt: sessions.revokedAt,
      role: users.role,
    })
    .from(sessions)
    .leftJoin(users, and(eq(users.id, sessions.userId), eq(users.tenantId, sessions.tenantId), notRemoved))
    .where(eq(sessions.tokenHash, sql.placeholder("tokenHash"))),
);

/** Slides an open session's expiry forward; a session revoked meanwhile stays revoked. */
export async function touchSession(
  db: Executor,
  params: { tenantId: string; sessionId: string; lastSeenAt: Date; expiresAt: Date },
): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt: params.lastSeenAt, expiresAt: params.expiresAt })
    .where(and(eq(sessions.id, params.sessionId), eq(sessions.tenantId, params.tenantId), isNull(sessions.revokedAt)));
}

/**
 * Records when keys were last used: one UPDATE for the whole batch, never moving a key's time
 * backwards (instances flush independently and may be behind one another).
 */
export async function recordApiKeysLastUsed(db: Executor, uses: { keyId: string; usedAt: Date }[]): Promise<void> {
  if (uses.length === 0) return;
  const rows = JSON.stringify(uses.map((use) => ({ key_id: use.keyId, t: use.usedAt.toISOString() })));
  await db.execute(sql`
    update api_keys set last_used_at = v.t
      from jsonb_to_recordset(${rows}::jsonb) as v(key_id text, t timestamptz)
     where api_keys.key_id = v.key_id and (api_keys.last_used_at is null or api_keys.last_used_at < v.t)`);
}
