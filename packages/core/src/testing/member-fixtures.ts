import type { Database } from "@qc/db";
import type { MemberRole } from "@qc/domain";
import { systemActor } from "../audit/actor";
import { createApiKey } from "../credentials/create-api-key";
import { addMember } from "../members/add-member";
import type { TenantFixture } from "./fixtures";

let counter = 0;

/** The password every fixture member logs in with. */
export const MEMBER_FIXTURE_PASSWORD = "fixture member password";

/**
 * Another member of a fixture tenant, with `role`, joined through the members service (as an
 * accepted invitation would make them), and a full-access API key of theirs: the same shape as
 * the tenant fixture, so createSessionFixture and createKeyFixture work for the member too.
 */
export async function createMemberFixture(
  deps: { db: Database; pepper: Buffer; now?: () => Date },
  tenant: Pick<TenantFixture, "tenantId">,
  role: MemberRole,
): Promise<TenantFixture> {
  counter += 1;
  const now = deps.now ?? (() => new Date());
  const email = `member-${role.toLowerCase()}-${counter}-${tenant.tenantId.slice(-8)}@fixture.test`;
  const member = await addMember(
    { db: deps.db, now },
    {
      tenantId: tenant.tenantId,
      email,
      name: `Fixture ${role}`,
      password: MEMBER_FIXTURE_PASSWORD,
      role,
      actor: systemActor("test-fixture"),
    },
  );
  const key = await createApiKey({ db: deps.db, now }, deps.pepper, {
    tenantId: tenant.tenantId,
    userId: member.userId,
    label: `fixture ${role}`,
  });
  return {
    tenantId: tenant.tenantId,
    userId: member.userId,
    email,
    keyId: key.keyId,
    secret: key.secret,
    authorization: `Bearer ${key.keyId}:${key.secret}`,
  };
}
