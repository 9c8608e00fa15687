import { signApproverKeyProof } from "@qc/chain";
import { createKeyFixture, createMemberFixture, createSessionFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSignerKey, type SignerKey } from "./custody-helpers";
import { startTestServer, TEST_PEPPER, type TestServer } from "./harness";
import { memberRequests } from "./member-requests";

interface ApprovalKey {
  keyId: string;
  publicKey: string;
  createdAt: string;
  revokedAt: string | null;
}

/**
 * Approval keys over REST (CONTRACT §15): a member enrolls an ML-DSA-87 key with a proof bound to
 * their tenant and user id, lists and revokes their own keys. Who "me" is (GET /v1/members/me),
 * the `signer` scope for enrolling and revoking with an API key, a VIEWER refused, another
 * member's key 404, a bad or someone else's proof 400 INVALID_SIGNATURE, a key enrolled twice 409.
 */
describe("approval keys", () => {
  const t = useTestDatabase();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database: t });
  });
  afterAll(() => server?.close());

  const { send, answer } = memberRequests(() => server);
  const deps = () => ({ db: t.db, pepper: TEST_PEPPER });
  const enrollment = (who: Pick<TenantFixture, "tenantId" | "userId">, key: SignerKey = newSignerKey()) => ({
    key,
    body: {
      publicKey: key.publicKey,
      proof: signApproverKeyProof({ tenantId: who.tenantId, userId: who.userId, secretKey: key.secretKey }),
    },
  });
  const enroll = async (by: { authorization: string }, who: Pick<TenantFixture, "tenantId" | "userId">): Promise<ApprovalKey> => {
    const res = await send(by, "POST", "/v1/members/me/approval-keys", enrollment(who).body);
    expect(res.status, res.text).toBe(201);
    return res.json<ApprovalKey>();
  };
  const keysOf = async (by: { authorization: string }) => {
    const res = await send(by, "GET", "/v1/members/me/approval-keys");
    expect(res.status, res.text).toBe(200);
    return res.json<{ keys: ApprovalKey[] }>().keys;
  };

  it("tells a signer's key which member it acts for, and enrolls, lists and revokes that member's keys", async () => {
    const owner = await createTenantFixture(deps());
    const approver = await createMemberFixture(deps(), owner, "APPROVER");
    const signerKey = await createKeyFixture(deps(), approver, ["signer"]);

    const me = await send(signerKey, "GET", "/v1/members/me");
    expect(me.status, me.text).toBe(200);
    expect(me.json()).toMatchObject({ userId: approver.userId, role: "APPROVER", status: "ACTIVE", approverGroupIds: [] });

    const { key, body } = enrollment(approver);
    const enrolled = await send(signerKey, "POST", "/v1/members/me/approval-keys", {
      ...body,
      publicKey: body.publicKey.toUpperCase().replace("0X", ""),
    });
    expect(enrolled.status, enrolled.text).toBe(201);
    const first = enrolled.json<ApprovalKey>();
    expect(first).toEqual({
      keyId: expect.any(String),
      publicKey: key.publicKey.toLowerCase(),
      createdAt: expect.any(String),
      revokedAt: null,
    });

    const session = await createSessionFixture({ db: t.db }, approver);
    const second = await enroll(session, approver);
    expect((await keysOf(signerKey)).map((k) => k.keyId)).toEqual([second.keyId, first.keyId]);

    expect(answer(await send(signerKey, "DELETE", `/v1/members/me/approval-keys/${first.keyId}`))).toBe("204");
    const listed = await keysOf(approver);
    expect(listed.find((k) => k.keyId === first.keyId)?.revokedAt).toEqual(expect.any(String));
    expect(listed.find((k) => k.keyId === second.keyId)?.revokedAt).toBeNull();
    expect(answer(await send(signerKey, "DELETE", `/v1/members/me/approval-keys/${first.keyId}`))).toBe("409 CONFLICT");
    const [row] = await t.db.select().from(schema.approvalKeys).where(eq(schema.approvalKeys.id, first.keyId));
    expect(row?.revokedAt).not.toBeNull();

    const audit = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.tenantId, owner.tenantId), eq(schema.auditEvents.targetId, first.keyId)))
      .orderBy(schema.auditEvents.createdAt);
    expect(audit.map((r) => [r.action, r.actorId])).toEqual([
      ["approval_key.enrolled", signerKey.keyId],
      ["approval_key.revoked", signerKey.keyId],
    ]);
  });

  it("refuses a proof that does not verify, a proof for another member, and a key enrolled twice", async () => {
    const owner = await createTenantFixture(deps());
    const other = await createMemberFixture(deps(), owner, "APPROVER");
    const { body } = enrollment(owner);
    const tampered = { ...body, proof: `${body.proof.slice(0, -2)}${body.proof.endsWith("00") ? "01" : "00"}` };
    expect(answer(await send(owner, "POST", "/v1/members/me/approval-keys", tampered))).toBe("400 INVALID_SIGNATURE");
    // Signed for another member (or tenant): not this member's key.
    expect(answer(await send(owner, "POST", "/v1/members/me/approval-keys", enrollment(other).body))).toBe("400 INVALID_SIGNATURE");
    expect(answer(await send(owner, "POST", "/v1/members/me/approval-keys", { ...body, publicKey: "0x1234" }))).toBe(
      "400 VALIDATION_FAILED",
    );
    expect(answer(await send(owner, "POST", "/v1/members/me/approval-keys", { ...body, proof: "zz" }))).toBe("400 VALIDATION_FAILED");
    expect(await keysOf(owner)).toEqual([]);

    expect(answer(await send(owner, "POST", "/v1/members/me/approval-keys", body))).toBe("201");
    expect(answer(await send(owner, "POST", "/v1/members/me/approval-keys", body))).toBe("409 CONFLICT");
  });

  it("answers 404 for another member's key, and lists only the caller's", async () => {
    const owner = await createTenantFixture(deps());
    const approver = await createMemberFixture(deps(), owner, "APPROVER");
    const stranger = await createTenantFixture(deps());
    const theirs = await enroll(approver, approver);
    const mine = await enroll(owner, owner);
    expect((await keysOf(owner)).map((k) => k.keyId)).toEqual([mine.keyId]);
    expect(answer(await send(owner, "DELETE", `/v1/members/me/approval-keys/${theirs.keyId}`))).toBe("404 NOT_FOUND");
    expect(answer(await send(stranger, "DELETE", `/v1/members/me/approval-keys/${theirs.keyId}`))).toBe("404 NOT_FOUND");
    expect(answer(await send(owner, "DELETE", "/v1/members/me/approval-keys/not-a-uuid"))).toBe("400 VALIDATION_FAILED");
    expect((await keysOf(approver)).map((k) => [k.keyId, k.revokedAt])).toEqual([[theirs.keyId, null]]);
  });

  it("refuses a VIEWER (403 INSUFFICIENT_ROLE) and an API key without the signer scope (403 INSUFFICIENT_SCOPE)", async () => {
    const owner = await createTenantFixture(deps());
    const viewer = await createMemberFixture(deps(), owner, "VIEWER");
    expect(answer(await send(viewer, "POST", "/v1/members/me/approval-keys", enrollment(viewer).body))).toBe("403 INSUFFICIENT_ROLE");
    const session = await createSessionFixture({ db: t.db }, viewer);
    expect(answer(await send(session, "POST", "/v1/members/me/approval-keys", enrollment(viewer).body))).toBe("403 INSUFFICIENT_ROLE");
    expect(await keysOf(viewer)).toEqual([]);

    const approver = await createMemberFixture(deps(), owner, "APPROVER");
    const key = await enroll(approver, approver);
    for (const scope of ["read", "write", "admin"] as const) {
      const scoped = await createKeyFixture(deps(), approver, [scope]);
      expect(answer(await send(scoped, "POST", "/v1/members/me/approval-keys", enrollment(approver).body)), scope).toBe(
        "403 INSUFFICIENT_SCOPE",
      );
      expect(answer(await send(scoped, "DELETE", `/v1/members/me/approval-keys/${key.keyId}`)), scope).toBe("403 INSUFFICIENT_SCOPE");
      expect(
        (await keysOf(scoped)).map((k) => k.keyId),
        scope,
      ).toEqual([key.keyId]);
    }
  });
});
