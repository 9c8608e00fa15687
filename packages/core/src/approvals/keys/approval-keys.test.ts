import { generateKeyPair, signApproverKeyProof } from "@qc/chain";
import { useTestDatabase } from "@qc/db/testing";
import { bytesToHex } from "@noble/hashes/utils.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceDeps } from "../../deps/service-deps";
import { createTenantFixture } from "../../testing/fixtures";
import { createMemberFixture } from "../../testing/member-fixtures";
import { createTestServiceDeps } from "../../testing/service-deps";
import { enrollApprovalKey, MAX_ACTIVE_APPROVAL_KEYS } from "./enroll-approval-key";
import { listApprovalKeys } from "./list-approval-keys";
import { revokeApprovalKey } from "./revoke-approval-key";

/** The approval-key services against the database and the real verifier pool (CONTRACT §15). */
describe("approval keys", () => {
  const t = useTestDatabase();
  const pepper = Buffer.alloc(32, 5);
  let deps: ServiceDeps & { close(): Promise<void> };
  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t });
  });
  afterAll(() => deps.close());

  const keyFor = (tenantId: string, userId: string) => {
    const { publicKey, secretKey } = generateKeyPair();
    return { publicKey: `0x${bytesToHex(publicKey)}`, proof: signApproverKeyProof({ tenantId, userId, secretKey }) };
  };

  it("enrolls a key whose proof binds it to the member, refuses another member's proof, and caps the keys not revoked", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper });
    const other = await createMemberFixture({ db: t.db, pepper }, owner, "APPROVER");
    const actor = { type: "user" as const, id: owner.userId };
    const me = { tenantId: owner.tenantId, userId: owner.userId, actor };

    const enrolled = await enrollApprovalKey(deps, { ...me, ...keyFor(owner.tenantId, owner.userId) });
    expect(enrolled).toMatchObject({ revokedAt: null });
    await expect(enrollApprovalKey(deps, { ...me, ...keyFor(owner.tenantId, other.userId) })).rejects.toMatchObject({
      error: "INVALID_SIGNATURE",
    });
    await expect(enrollApprovalKey(deps, { ...me, userId: undefined, ...keyFor(owner.tenantId, owner.userId) })).rejects.toMatchObject({
      error: "NOT_FOUND",
    });

    for (let i = 1; i < MAX_ACTIVE_APPROVAL_KEYS; i++) await enrollApprovalKey(deps, { ...me, ...keyFor(owner.tenantId, owner.userId) });
    await expect(enrollApprovalKey(deps, { ...me, ...keyFor(owner.tenantId, owner.userId) })).rejects.toMatchObject({ error: "CONFLICT" });
    await revokeApprovalKey(deps, { ...me, keyId: enrolled.keyId });
    await enrollApprovalKey(deps, { ...me, ...keyFor(owner.tenantId, owner.userId) });
    const { keys } = await listApprovalKeys(deps, me);
    expect(keys).toHaveLength(MAX_ACTIVE_APPROVAL_KEYS + 1);
    expect(keys.filter((k) => k.revokedAt !== null).map((k) => k.keyId)).toEqual([enrolled.keyId]);
    expect(await listApprovalKeys(deps, { tenantId: owner.tenantId, userId: other.userId })).toEqual({ keys: [] });
  });
});
