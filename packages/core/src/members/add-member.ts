import { isUniqueViolation, type Executor } from "@qc/db";
import { findUserIdByEmail, insertUser } from "@qc/db/queries";
import type { MemberRole } from "@qc/domain";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { hashPassword } from "../identity/passwords";
import { toMemberRecord, type MemberRecord } from "./member-record";

export interface AddMemberInput {
  tenantId: string;
  /** Lower-cased at the boundary, like signup's. */
  email: string;
  name: string | null;
  password: string;
  role: MemberRole;
  /** Who brought the member in: a tool (`system`); an accepted invitation goes through acceptInvitation. */
  actor: Actor;
}

export const emailTaken = () => new AppError("EMAIL_ALREADY_REGISTERED", "an account with this email already exists");

/**
 * Rethrows the unique violation of users.email, which decides between two joins with one
 * address at once, as 409 EMAIL_ALREADY_REGISTERED.
 */
export function rethrowEmailTaken(error: unknown): never {
  if (isUniqueViolation(error, "users_email_unique")) throw emailTaken();
  throw error;
}

/**
 * Creates the member's user in the caller's transaction, the email verified (an invitation
 * reached it) and audits `member.added`. `actor` may name the new user: it is given the user's id.
 */
export async function insertMember(
  tx: Executor,
  input: Omit<AddMemberInput, "password" | "actor"> & { passwordHash: string; now: Date; actor: (userId: string) => Actor },
  details: Record<string, unknown> = {},
): Promise<MemberRecord> {
  const user = await insertUser(tx, {
    tenantId: input.tenantId,
    email: input.email,
    name: input.name,
    passwordHash: input.passwordHash,
    role: input.role,
    status: "EMAIL_VERIFIED",
    emailVerifiedAt: input.now,
  });
  await auditAction(tx, input.actor(user.id), {
    tenantId: input.tenantId,
    action: "member.added",
    target: { type: "user", id: user.id },
    details: { role: input.role, ...details },
  });
  // A new member has registered no passkey yet.
  return toMemberRecord({ id: user.id, email: input.email, name: input.name, role: input.role, createdAt: user.createdAt }, 0);
}

/**
 * Makes a person a member of the tenant with `role` (CONTRACT §14: the email counts as verified).
 * Whether the role may be given was decided before, by whoever asked; this only creates the
 * member. A user belongs to one tenant: an address that already has an account (a removed
 * member's too) is 409 EMAIL_ALREADY_REGISTERED.
 */
export async function addMember(deps: Pick<ServiceDeps, "db" | "now">, input: AddMemberInput): Promise<MemberRecord> {
  if (await findUserIdByEmail(deps.db, { email: input.email })) throw emailTaken();
  const passwordHash = await hashPassword(input.password);
  const now = deps.now();
  try {
    return await deps.db.transaction((tx) => insertMember(tx, { ...input, passwordHash, now, actor: () => input.actor }));
  } catch (error) {
    rethrowEmailTaken(error);
  }
}
