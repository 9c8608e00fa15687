import { eq, schema, type Database } from "@qc/db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { issueVerificationEmail } from "../email/verification-email";
import { AppError } from "../errors";
import type { JobQueue } from "../jobs/queue";
import { hashPassword } from "./passwords";
import { isUniqueViolation } from "./unique-violation";

export interface SignUpInput {
  organizationName: string;
  /** Already lower-cased and trimmed at the boundary. */
  email: string;
  name?: string;
  password: string;
  accountType: "BUSINESS" | "INDIVIDUAL";
  requestId?: string;
  ip?: string;
}

export interface SignUpResult {
  tenantId: string;
  userId: string;
  status: "PENDING_EMAIL_VERIFICATION";
  message: string;
}

export interface IdentityDeps {
  db: Database;
  jobs: JobQueue;
  now(): Date;
  publicUrl: string;
}

const emailTaken = () => new AppError("EMAIL_ALREADY_REGISTERED", "an account with this email already exists; log in or reset the password");

/**
 * Creates the tenant (PENDING_VERIFICATION), its first admin (PENDING_EMAIL_VERIFICATION), a
 * verification token, the email carrying it and the job delivering it, in one transaction.
 * The unique index on users.email decides between concurrent signups with one address; the
 * pre-check only spares the Argon2 work in the common case.
 */
export async function signUp(deps: IdentityDeps, input: SignUpInput): Promise<SignUpResult> {
  const [existing] = await deps.db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, input.email));
  if (existing) throw emailTaken();
  const passwordHash = await hashPassword(input.password);
  const now = deps.now();
  try {
    return await deps.db.transaction(async (tx) => {
      const [tenant] = await tx
        .insert(schema.tenants)
        .values({ name: input.organizationName, accountType: input.accountType, status: "PENDING_VERIFICATION" })
        .returning({ id: schema.tenants.id });
      const [user] = await tx
        .insert(schema.users)
        .values({ tenantId: tenant!.id, email: input.email, name: input.name ?? null, passwordHash, role: "ADMIN", status: "PENDING_EMAIL_VERIFICATION" })
        .returning({ id: schema.users.id });
      await issueVerificationEmail(
        tx,
        { jobs: deps.jobs, publicUrl: deps.publicUrl, now },
        { id: user!.id, tenantId: tenant!.id, email: input.email, name: input.name ?? null, organizationName: input.organizationName },
      );
      await recordAuditEvent(tx, {
        action: "tenant.signed_up",
        actorType: "user",
        actorId: user!.id,
        tenantId: tenant!.id,
        targetType: "tenant",
        targetId: tenant!.id,
        requestId: input.requestId,
        ip: input.ip,
        details: { userId: user!.id, accountType: input.accountType },
      });
      return {
        tenantId: tenant!.id,
        userId: user!.id,
        status: "PENDING_EMAIL_VERIFICATION" as const,
        message: `Account created. We sent a verification link to ${input.email}; it is valid for 24 hours.`,
      };
    });
  } catch (error) {
    if (isUniqueViolation(error, "users_email_unique")) throw emailTaken();
    throw error;
  }
}
