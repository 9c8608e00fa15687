import { randomBytes } from "node:crypto";
import { useTestDatabase } from "@qc/db/testing";
import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { createTenantFixture } from "../testing/fixtures";
import { createMemberFixture } from "../testing/member-fixtures";
import { getSignedInMember } from "./get-signed-in-member";

describe("getSignedInMember (the dashboard's who-am-I)", () => {
  const t = useTestDatabase();
  const pepper = randomBytes(32);

  it("names the organization and the member with the role they have now", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper }, { name: "Acme Treasury Ltd" });
    const viewer = await createMemberFixture({ db: t.db, pepper }, owner, "VIEWER");
    await expect(getSignedInMember({ db: t.db }, { tenantId: owner.tenantId, userId: viewer.userId })).resolves.toEqual({
      tenant: { id: owner.tenantId, name: "Acme Treasury Ltd" },
      member: { userId: viewer.userId, email: viewer.email, name: "Fixture VIEWER", role: "VIEWER" },
    });
    const me = await getSignedInMember({ db: t.db }, { tenantId: owner.tenantId, userId: owner.userId });
    expect(me.member).toMatchObject({ userId: owner.userId, role: "OWNER" });
  });

  it("answers 401 for a user of another tenant, as if there were no session", async () => {
    const a = await createTenantFixture({ db: t.db, pepper });
    const b = await createTenantFixture({ db: t.db, pepper });
    const failure = await getSignedInMember({ db: t.db }, { tenantId: a.tenantId, userId: b.userId }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ error: "UNAUTHENTICATED", status: 401 });
  });
});
