import { randomBytes } from "node:crypto";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userActor } from "../audit/actor";
import { Authenticator } from "../auth/authenticator";
import { createLogger } from "../logger";
import { createTenantFixture } from "../testing/fixtures";
import { createMemberFixture } from "../testing/member-fixtures";
import { listMembers } from "./list-members";
import { removeMember } from "./remove-member";

describe("removeMember (CONTRACT §14)", () => {
  const t = useTestDatabase();
  const pepper = randomBytes(32);
  const now = () => new Date();
  let authenticator: Authenticator;
  beforeAll(() => {
    authenticator = new Authenticator({ database: t, pepper, now, log: createLogger("test", "silent") });
  });
  afterAll(() => authenticator?.close());

  it("leaves one OWNER when two owners remove each other at once (409 LAST_OWNER for the other)", async () => {
    const first = await createTenantFixture({ db: t.db, pepper });
    const second = await createMemberFixture({ db: t.db, pepper }, first, "OWNER");
    const remove = (by: { userId: string }, userId: string) =>
      removeMember({ db: t.db, now, authenticator }, { tenantId: first.tenantId, userId, actor: userActor(by.userId) });
    const outcomes = await Promise.allSettled([remove(first, second.userId), remove(second, first.userId)]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    // The loser's caller was removed first, or the one it removed was the last OWNER by then.
    expect(outcomes.find((o) => o.status === "rejected")).toMatchObject({
      reason: { error: expect.stringMatching(/^(LAST_OWNER|INSUFFICIENT_ROLE)$/) },
    });
    const { members } = await listMembers(t, { tenantId: first.tenantId, limit: 10 });
    expect(members.filter((m) => m.role === "OWNER")).toHaveLength(1);
    const keys = await t.db
      .select({ status: schema.apiKeys.status })
      .from(schema.apiKeys)
      .where(and(eq(schema.apiKeys.tenantId, first.tenantId), eq(schema.apiKeys.status, "ACTIVE")));
    expect(keys).toHaveLength(1);
  });
});
