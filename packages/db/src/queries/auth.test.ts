import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiKeys, sessions, tenants, users } from "../schema";
import { useTestDatabase } from "../testing";
import { findApiKeyCredential, findSessionByTokenHash } from "./auth";

// The credentials' role is the member's current one; a REMOVED member has none, so a key or
// session that outlived the removal (it should not: removal revokes them) is refused everything.
describe("the role a credential acts with", () => {
  const t = useTestDatabase();

  it("is the member's role, and none once the member is REMOVED", async () => {
    const now = new Date("2026-11-25T10:00:00.000Z");
    const [tenant] = await t.db.insert(tenants).values({ name: "Roles" }).returning();
    const [user] = await t.db
      .insert(users)
      .values({ tenantId: tenant!.id, email: "initiator@roles.test", passwordHash: "!", role: "INITIATOR", status: "EMAIL_VERIFIED" })
      .returning();
    const keyId = `qc_${"a".repeat(32)}`;
    await t.db
      .insert(apiKeys)
      .values({ tenantId: tenant!.id, keyId, secretHash: "h", label: "k", createdByUserId: user!.id, createdAt: now });
    await t.db
      .insert(sessions)
      .values({ tenantId: tenant!.id, userId: user!.id, tokenHash: "roles-token", expiresAt: now, lastSeenAt: now, createdAt: now });

    expect((await findApiKeyCredential(t.db, { keyId }))?.role).toBe("INITIATOR");
    expect((await findSessionByTokenHash(t.db, { tokenHash: "roles-token" }))?.role).toBe("INITIATOR");

    await t.db.update(users).set({ status: "REMOVED" }).where(eq(users.id, user!.id));
    expect(await findApiKeyCredential(t.db, { keyId })).toMatchObject({ createdByUserId: user!.id, role: null });
    expect(await findSessionByTokenHash(t.db, { tokenHash: "roles-token" })).toMatchObject({ userId: user!.id, role: null });
  });
});
