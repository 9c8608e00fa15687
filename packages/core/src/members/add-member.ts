import { isUniqueViolation } from "@qc/db";
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
  /** Who brought the member in: the invitation's acceptance, or a tool (`system`). */
  actor: Actor;
}

const emailTaken = () => new AppError("EMAIL_ALREADY_REGISTERED", "an account with this email already exists");

/**
 * Makes a person a member of the tenant with `role`: the step an accepted invitation ends in
 * (CONTRACT §14: the email counts as verified, since the invitation reached it). Whether the role
 * may be given was decided before, by whoever invited (a role that may `manage_members`, or
 * `manage_owners` for an OWNER); this only creates the member. A user belongs to one tenant: an
 * address that already has an account is 409 EMAIL_ALREADY_REGISTERED.
 */
export async function addMember(deps: Pick<ServiceDeps, "db" | "now">, input: AddMemberInput): Promise<MemberRecord> {
  if (await findUserIdByEmail(deps.db, { email: input.email })) throw emailTaken();
  const passwordHash = await hashPassword(input.password);
  const now = deps.now();
  try {
    return await deps.db.transaction(async (tx) => {
      const user = await insertUser(tx, {
        tenantId: input.tenantId,
        email: input.email,
        name: input.name,
        passwordHash,
        role: input.role,
        status: "EMAIL_VERIFIED",
        emailVerifiedAt: now,
      });
      await auditAction(tx, input.actor, {
        tenantId: input.tenantId,
        action: "member.added",
        target: { type: "user", id: user.id },
        details: { role: input.role },
      });
      return toMemberRecord({ id: user.id, email: input.email, name: input.name, role: input.role, createdAt: user.createdAt });
    });
  } catch (error) {
    if (isUniqueViolation(error, "users_email_unique")) throw emailTaken();
    throw error;
  }
}
