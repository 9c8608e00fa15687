import { isUniqueViolation } from "@qc/db";
import { findUserIdByEmail, insertTenant, insertUser } from "@qc/db/queries";
import type { AccountType } from "@qc/domain";
import { auditAction, userActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { issueVerificationEmail } from "../email/verification-email";
import { AppError } from "../errors";
import { hashPassword } from "./passwords";

export interface SignUpInput {
  organizationName: string;
  /** Already lower-cased and trimmed at the boundary. */
  email: string;
  name?: string;
  password: string;
  accountType: AccountType;
  requestId?: string;
  ip?: string;
}

export interface SignUpResult {
  tenantId: string;
  userId: string;
  status: "PENDING_EMAIL_VERIFICATION";
  message: string;
}

/** What the account services use: they write rows, queue emails and build links to PUBLIC_URL. */
export type IdentityDeps = Pick<ServiceDeps, "db" | "jobs" | "now" | "config">;

const emailTaken = () =>
  new AppError(
    "EMAIL_ALREADY_REGISTERED",
    "an account with this email already exists; log in, or ask for a password reset link (POST " + "/v1/auth/password-reset)",
  );

/**
 * Creates the tenant (PENDING_VERIFICATION), its first member, an OWNER (PENDING_EMAIL_VERIFICATION), a
 * verification token, the email carrying it and the job delivering it, in one transaction.
 * The unique index on users.email decides between concurrent signups with one address; the
 * pre-check only spares the Argon2 work in the common case.
 */
export async function signUp(deps: IdentityDeps, input: SignUpInput): Promise<SignUpResult> {
  if (await findUserIdByEmail(deps.db, { email: input.email })) throw emailTaken();
  const passwordHash = await hashPassword(input.password);
  const now = deps.now();
  try {
    return await deps.db.transaction(async (tx) => {
      const tenant = await insertTenant(tx, {
        name: input.organizationName,
        accountType: input.accountType,
        status: "PENDING_VERIFICATION",
      });
      const user = await insertUser(tx, {
        tenantId: tenant.id,
        email: input.email,
        name: input.name ?? null,
        passwordHash,
        // The person who signs up is the tenant's first OWNER (CONTRACT §14).
        role: "OWNER",
        status: "PENDING_EMAIL_VERIFICATION",
      });
      await issueVerificationEmail(tx, deps, now, {
        id: user.id,
        tenantId: tenant.id,
        email: input.email,
        name: input.name ?? null,
        organizationName: input.organizationName,
      });
      await auditAction(tx, userActor(user.id, input), {
        tenantId: tenant.id,
        action: "tenant.signed_up",
        target: { type: "tenant", id: tenant.id },
        details: { userId: user.id, accountType: input.accountType },
      });
      return {
        tenantId: tenant.id,
        userId: user.id,
        status: "PENDING_EMAIL_VERIFICATION" as const,
        message: `Account created. We sent a verification link to ${input.email}; it is valid for 24 hours.`,
      };
    });
  } catch (error) {
    if (isUniqueViolation(error, "users_email_unique")) throw emailTaken();
    throw error;
  }
}
