import { rolesAllowing, type MemberRole } from "@qc/domain";
import { and, asc, desc, eq, gt, inArray, isNull, lt, ne, or } from "drizzle-orm";
import type { Executor } from "../client";
import { emailTokens, sessions, tenants, users } from "../schema/identity";

/*
 * Accounts, sessions and emailed tokens. Signup, login, verification and password reset find a
 * user by address or token before any tenant is known, so those lookups are by the globally
 * unique email or token hash; everything after that is scoped by the tenant it found.
 *
 * A REMOVED user (CONTRACT §14, docs/members.md) keeps their row and address (the address stays
 * taken: findUserIdByEmail still finds it), but is no member: no login, no reset link, no role.
 */
export const notRemoved = ne(users.status, "REMOVED");

export type TenantRow = typeof tenants.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type EmailTokenPurpose = "VERIFY_EMAIL" | "PASSWORD_RESET";

/** The id of the user with this address, if any (addresses are unique across the service). */
export async function findUserIdByEmail(db: Executor, params: { email: string }): Promise<string | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, params.email));
  return row?.id;
}

export async function insertTenant(
  db: Executor,
  params: { name: string; accountType: TenantRow["accountType"]; status: TenantRow["status"] },
): Promise<{ id: string }> {
  const [row] = await db.insert(tenants).values(params).returning({ id: tenants.id });
  return row!;
}

/** Raises the unique violation `users_email_unique` when the address is taken. */
export async function insertUser(
  db: Executor,
  params: {
    tenantId: string;
    email: string;
    name: string | null;
    passwordHash: string;
    role: MemberRole;
    status: UserRow["status"];
    emailVerifiedAt?: Date;
  },
): Promise<{ id: string; createdAt: Date }> {
  const [row] = await db.insert(users).values(params).returning({ id: users.id, createdAt: users.createdAt });
  return row!;
}

export interface LoginCandidate {
  id: string;
  email: string;
  name: string | null;
  passwordHash: string;
  status: UserRow["status"];
  tenantId: string;
  tenantName: string;
  tenantStatus: TenantRow["status"];
}

/** The user with this address and their tenant, for a login attempt; none for a removed member. */
export async function findLoginCandidate(db: Executor, params: { email: string }): Promise<LoginCandidate | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      passwordHash: users.passwordHash,
      status: users.status,
      tenantId: tenants.id,
      tenantName: tenants.name,
      tenantStatus: tenants.status,
    })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(and(eq(users.email, params.email), notRemoved));
  return row;
}

/**
 * The user with this address, locked FOR UPDATE until the transaction ends (with the tenant's
 * name, not locked), so that two requests at once for one address run one after the other.
 */
export async function lockUserByEmail(
  db: Executor,
  params: { email: string },
): Promise<
  { id: string; tenantId: string; email: string; name: string | null; status: UserRow["status"]; organizationName: string } | undefined
> {
  const [row] = await db
    .select({
      id: users.id,
      tenantId: users.tenantId,
      email: users.email,
      name: users.name,
      status: users.status,
      organizationName: tenants.name,
    })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(and(eq(users.email, params.email), notRemoved))
    .for("update", { of: users });
  return row;
}

export async function findUserById(
  db: Executor,
  params: { userId: string },
): Promise<{ id: string; tenantId: string; email: string; status: UserRow["status"] } | undefined> {
  const [row] = await db
    .select({ id: users.id, tenantId: users.tenantId, email: users.email, status: users.status })
    .from(users)
    .where(eq(users.id, params.userId));
  return row;
}

/** The current role of the tenant's member; undefined for a user of another tenant, a removed member or none. */
export async function findMemberRole(db: Executor, params: { tenantId: string; userId: string }): Promise<MemberRole | undefined> {
  const [row] = await db
    .select({ role: users.role })
    .from(users)
    .where(and(eq(users.id, params.userId), eq(users.tenantId, params.tenantId), notRemoved));
  return row?.role;
}

export interface MemberRow {
  id: string;
  email: string;
  name: string | null;
  role: MemberRole;
  createdAt: Date;
}
const memberColumns = { id: users.id, email: users.email, name: users.name, role: users.role, createdAt: users.createdAt };

/** The tenant's members, newest first (CONTRACT §1), before `beforeId` when given; `limit` rows at most. */
export function listTenantMembers(
  db: Executor,
  params: { tenantId: string; limit: number; beforeId?: string | undefined },
): Promise<MemberRow[]> {
  return db
    .select(memberColumns)
    .from(users)
    .where(and(eq(users.tenantId, params.tenantId), notRemoved, params.beforeId ? lt(users.id, params.beforeId) : undefined))
    .orderBy(desc(users.id))
    .limit(params.limit);
}

/**
 * The tenant's member (not REMOVED), its row locked FOR UPDATE when `lock`; undefined for a user of
 * another tenant, a removed one or an unknown id.
 */
export async function findTenantMember(
  db: Executor,
  params: { tenantId: string; userId: string; lock?: boolean },
): Promise<MemberRow | undefined> {
  const query = db
    .select(memberColumns)
    .from(users)
    .where(and(eq(users.id, params.userId), eq(users.tenantId, params.tenantId), notRemoved));
  const [row] = params.lock ? await query.for("update") : await query;
  return row;
}

/**
 * The tenant's member, locked FOR UPDATE with every OWNER of the tenant (in id order, so that two
 * role changes at once wait for each other instead of deadlocking): the last-owner rule counts
 * owners that cannot change until the transaction ends. Undefined for a user of another tenant or a removed one.
 */
export async function lockMemberAndOwners(
  db: Executor,
  params: { tenantId: string; userId: string },
): Promise<{ member: MemberRow | undefined; ownerIds: string[] }> {
  const rows = await db
    .select(memberColumns)
    .from(users)
    .where(and(eq(users.tenantId, params.tenantId), notRemoved, or(eq(users.id, params.userId), eq(users.role, "OWNER"))))
    .orderBy(asc(users.id))
    .for("update");
  return {
    member: rows.find((row) => row.id === params.userId),
    ownerIds: rows.filter((row) => row.role === "OWNER").map((row) => row.id),
  };
}

export async function updateMemberRole(
  db: Executor,
  params: { tenantId: string; userId: string; role: MemberRole; updatedAt: Date },
): Promise<MemberRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ role: params.role, updatedAt: params.updatedAt })
    .where(and(eq(users.id, params.userId), eq(users.tenantId, params.tenantId), notRemoved))
    .returning(memberColumns);
  return row;
}

/** PENDING_EMAIL_VERIFICATION → EMAIL_VERIFIED; no change for a user already verified. */
export async function markUserEmailVerified(db: Executor, params: { tenantId: string; userId: string; verifiedAt: Date }): Promise<void> {
  await db
    .update(users)
    .set({ status: "EMAIL_VERIFIED", emailVerifiedAt: params.verifiedAt, updatedAt: params.verifiedAt })
    .where(and(eq(users.id, params.userId), eq(users.tenantId, params.tenantId), eq(users.status, "PENDING_EMAIL_VERIFICATION")));
}

/** Replaces the password hash; the user as it was before any verification change. */
export async function updateUserPassword(
  db: Executor,
  params: { userId: string; passwordHash: string; updatedAt: Date },
): Promise<{ id: string; tenantId: string; status: UserRow["status"] } | undefined> {
  const [row] = await db
    .update(users)
    .set({ passwordHash: params.passwordHash, updatedAt: params.updatedAt })
    .where(eq(users.id, params.userId))
    .returning({ id: users.id, tenantId: users.tenantId, status: users.status });
  return row;
}

/**
 * The tenant's verified members who administer it (owners and admins, CONTRACT §14), the people
 * told about its security events.
 */
export function listVerifiedAdminEmails(db: Executor, params: { tenantId: string }): Promise<{ email: string }[]> {
  return db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.tenantId, params.tenantId), inArray(users.role, rolesAllowing("administer")), eq(users.status, "EMAIL_VERIFIED")));
}

export async function insertSession(
  db: Executor,
  params: {
    tenantId: string;
    userId: string;
    tokenHash: string;
    expiresAt: Date;
    lastSeenAt: Date;
    createdAt: Date;
    ip: string | null;
    userAgent: string | null;
  },
): Promise<{ id: string }> {
  const [row] = await db.insert(sessions).values(params).returning({ id: sessions.id });
  return row!;
}

/** Ends one session of the user; false when it had already ended (or is not theirs). */
export async function revokeUserSession(
  db: Executor,
  params: { tenantId: string; userId: string; sessionId: string; revokedAt: Date },
): Promise<boolean> {
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: params.revokedAt })
    .where(
      and(
        eq(sessions.id, params.sessionId),
        eq(sessions.tenantId, params.tenantId),
        eq(sessions.userId, params.userId),
        isNull(sessions.revokedAt),
      ),
    )
    .returning({ id: sessions.id });
  return revoked.length > 0;
}

/** Ends every open session of the user; how many it ended. */
export async function revokeAllUserSessions(db: Executor, params: { tenantId: string; userId: string; revokedAt: Date }): Promise<number> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: params.revokedAt })
    .where(and(eq(sessions.userId, params.userId), eq(sessions.tenantId, params.tenantId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return ended.length;
}

export async function insertEmailToken(
  db: Executor,
  params: { userId: string; purpose: EmailTokenPurpose; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(emailTokens).values(params);
}

/**
 * Uses a token up: one conditional UPDATE (unused, unexpired, of this purpose), so of two
 * concurrent requests with the same token exactly one gets the user.
 */
export async function consumeEmailTokenRow(
  db: Executor,
  params: { tokenHash: string; purpose: EmailTokenPurpose; usedAt: Date },
): Promise<{ userId: string } | undefined> {
  const [row] = await db
    .update(emailTokens)
    .set({ usedAt: params.usedAt })
    .where(
      and(
        eq(emailTokens.tokenHash, params.tokenHash),
        eq(emailTokens.purpose, params.purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, params.usedAt),
      ),
    )
    .returning({ userId: emailTokens.userId });
  return row;
}

/** Ends the user's unused, unexpired tokens of one purpose at `now`. */
export async function expireEmailTokenRows(db: Executor, params: { userId: string; purpose: EmailTokenPurpose; now: Date }): Promise<void> {
  await db
    .update(emailTokens)
    .set({ expiresAt: params.now })
    .where(
      and(
        eq(emailTokens.userId, params.userId),
        eq(emailTokens.purpose, params.purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, params.now),
      ),
    );
}
