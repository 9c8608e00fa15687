import { randomBytes } from "node:crypto";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userActor, type Actor } from "../audit/actor";
import { Authenticator } from "../auth/authenticator";
import { createLogger } from "../logger";
import { createKeyFixture, createTenantFixture } from "../testing/fixtures";
import { createMemberFixture } from "../testing/member-fixtures";
import { revokeApiKey } from "./revoke-api-key";
import { rotateApiKey } from "./rotate-api-key";

/** CONTRACT §14: own keys for every role; another member's keys only for a role that administers. */
describe("revoking and rotating another member's API key", () => {
  const t = useTestDatabase();
  const pepper = randomBytes(32);
  const now = () => new Date();
  let authenticator: Authenticator;
  beforeAll(() => {
    authenticator = new Authenticator({ database: t, pepper, now, log: createLogger("test", "silent") });
  });
  afterAll(() => authenticator?.close());
  const deps = () => ({ db: t.db, now, authenticator });
  const keyActor = (keyId: string): Actor => ({ type: "api_key", id: keyId });

  it("lets a VIEWER revoke and rotate their own keys, and refuses them the owner's (403 INSUFFICIENT_ROLE)", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper });
    const viewer = await createMemberFixture({ db: t.db, pepper }, owner, "VIEWER");
    const spare = await createKeyFixture({ db: t.db, pepper }, viewer, []);
    const revoke = (keyId: string, actor: Actor) => revokeApiKey(deps(), { tenantId: owner.tenantId, keyId, actor });
    const rotate = (keyId: string, actor: Actor) => rotateApiKey(deps(), pepper, { tenantId: owner.tenantId, keyId, actor });

    await expect(revoke(owner.keyId, userActor(viewer.userId))).rejects.toMatchObject({ error: "INSUFFICIENT_ROLE" });
    await expect(rotate(owner.keyId, keyActor(viewer.keyId))).rejects.toMatchObject({ error: "INSUFFICIENT_ROLE" });
    await expect(rotate(spare.keyId, keyActor(viewer.keyId))).resolves.toMatchObject({ oldKeyId: spare.keyId });
    await expect(revoke(viewer.keyId, userActor(viewer.userId))).resolves.toMatchObject({ status: "REVOKED" });
  });

  it("lets an ADMIN revoke and rotate any member's key", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper });
    const admin = await createMemberFixture({ db: t.db, pepper }, owner, "ADMIN");
    const initiator = await createMemberFixture({ db: t.db, pepper }, owner, "INITIATOR");
    await expect(
      rotateApiKey(deps(), pepper, { tenantId: owner.tenantId, keyId: initiator.keyId, actor: keyActor(admin.keyId) }),
    ).resolves.toMatchObject({
      oldKeyId: initiator.keyId,
    });
    await expect(
      revokeApiKey(deps(), { tenantId: owner.tenantId, keyId: owner.keyId, actor: userActor(admin.userId) }),
    ).resolves.toMatchObject({
      status: "REVOKED",
    });
  });
});
