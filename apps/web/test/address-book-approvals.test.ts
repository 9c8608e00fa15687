import { join } from "node:path";
import { addressBookApprovalHash, signApproval } from "@qc/chain";
import { createKeyFixture, createMemberFixture, createSessionFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The reference signer as a customer runs it (reached by path, as approvals-signer.test.ts does).
import { writeProfile } from "../../signer/src/lib/profile";
import { leaks, runSigner } from "../../signer/test/run-signer";
import { prepareSignerHome } from "../../signer/test/signer-home";
import { addGroup, approverOf, type Approver } from "./approvals-helpers";
import { client, expectError, newSignerKey } from "./custody-helpers";
import { startTestServer, TEST_PEPPER, type TestServer } from "./harness";
import { memberRequests } from "./member-requests";

type Entry = Record<string, any> & {
  id: string;
  status: string;
  activatesAt: string | null;
  approvals: {
    required: { groupId: string; quorum: number }[];
    decisions: Record<string, any>[];
    approvalHash: Hex;
    deadline: string;
  } | null;
};

/**
 * Additions that need approval over HTTPS (CONTRACT §16, decided as §15): the setting (who may
 * change it, its validation, the group it holds), entries AWAITING_APPROVAL, decisions by the
 * group's members — the adder refused (1401), an outsider (1402), a second decision 409, a bad
 * signature 400, another tenant's entry 404 — the quorum completed by a member's reference signer
 * (`approve-entry`, a real process that rebuilds the hash itself), and a rejection by another's
 * (`reject-entry`).
 */
describe("address-book additions that need approval", () => {
  const t = useTestDatabase();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database: t });
  });
  afterAll(() => server?.close());

  const { send, answer } = memberRequests(() => server);
  const db = () => ({ db: t.db, pepper: TEST_PEPPER });
  const payee = () => ({ networkCode: "QUANTUM_SANDBOX", address: newSignerKey().address, label: "Acme deposit" });
  const approveBy = (who: Approver, entry: Entry, hash: Hex = entry.approvals!.approvalHash) =>
    who.api.post(`/v1/address-book/${entry.id}/approvals`, {
      decision: "APPROVED",
      keyId: who.keyId,
      signature: signApproval(hash, who.secretKey),
    });

  /** A signer home for `member` (its own `signer` key), its profile trusting the test server's certificate. */
  async function signerFor(member: TenantFixture) {
    const key = await createKeyFixture(db(), member, ["signer"]);
    const url = `https://127.0.0.1:${server.httpsPort}`;
    const prepared = await prepareSignerHome({ url, apiKey: `${key.keyId}:${key.secret}`, tenantId: member.tenantId, keys: 0 });
    writeProfile(join(prepared.home, "profile.json"), { url, tenantId: member.tenantId, ca: server.tls.cert });
    const run = (args: string[], stdin?: string) =>
      runSigner(args, { home: prepared.home, passphrase: prepared.passphrase, ...(stdin === undefined ? {} : { stdin }) });
    return { run, secrets: [key.secret, prepared.passphrase] };
  }

  it("sets the requirement (administer, admin scope), validated like a policy, and holds the group", async () => {
    const owner = await createTenantFixture(db());
    const admin = client(() => server, owner.authorization);
    const members = await Promise.all([1, 2].map(() => createMemberFixture(db(), owner, "APPROVER")));
    const groupId = await addGroup(admin, "Book approvers", members);
    const body = { additionsRequireApproval: { groupId, quorum: 2 } };

    const initiator = await createMemberFixture(db(), owner, "INITIATOR");
    const session = await createSessionFixture(db(), initiator);
    expect(answer(await send(initiator, "PUT", "/v1/settings/address-book", body))).toBe("403 INSUFFICIENT_ROLE");
    expect(answer(await send(session, "PUT", "/v1/settings/address-book", body))).toBe("403 INSUFFICIENT_ROLE");
    const writeKey = await createKeyFixture(db(), owner, ["write"]);
    expect(answer(await send(writeKey, "PUT", "/v1/settings/address-book", body))).toBe("403 INSUFFICIENT_SCOPE");
    const readKey = await createKeyFixture(db(), owner, ["read"]);
    const unset = await send(readKey, "GET", "/v1/settings/address-book");
    expect(unset.status, unset.text).toBe(200);
    expect(unset.json()).toEqual({ additionsRequireApproval: null, updatedAt: null });

    const tooMany = await admin.put("/v1/settings/address-book", { additionsRequireApproval: { groupId, quorum: 3 } });
    expectError(tooMany, 400, "VALIDATION_FAILED", 1001);
    expect(tooMany.json().details.fields).toEqual([
      { path: "additionsRequireApproval.quorum", message: expect.stringContaining("2 member(s)") },
    ]);
    const other = await createTenantFixture(db());
    const foreign = await client(() => server, other.authorization).put("/v1/settings/address-book", body);
    expect(foreign.json().details.fields.map((f: { path: string }) => f.path)).toEqual(["additionsRequireApproval.groupId"]);
    expectError(
      await admin.put("/v1/settings/address-book", { additionsRequireApproval: { groupId, quorum: 0 } }),
      400,
      "VALIDATION_FAILED",
      1001,
    );

    const set = await admin.put("/v1/settings/address-book", body);
    expect(set.status, set.text).toBe(200);
    expect(set.json()).toMatchObject(body);
    expect((await send(readKey, "GET", "/v1/settings/address-book")).json()).toMatchObject(body);
    const audit = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.tenantId, owner.tenantId), eq(schema.auditEvents.action, "settings.address_book_replaced")));
    expect(audit.map((row) => row.details)).toEqual([{ before: null, after: body.additionsRequireApproval }]);

    const deleted = await send(owner, "DELETE", `/v1/approver-groups/${groupId}`);
    expectError(deleted, 409, "CONFLICT", 1040);
    expect(deleted.json().message).toContain("additionsRequireApproval");
    expectError(await admin.put(`/v1/approver-groups/${groupId}`, { memberIds: [members[0]!.userId] }), 409, "CONFLICT", 1040);
    // Off again: the group is free.
    expect((await admin.put("/v1/settings/address-book", { additionsRequireApproval: null })).json()).toMatchObject({
      additionsRequireApproval: null,
    });
    expect((await admin.put(`/v1/approver-groups/${groupId}`, { memberIds: [members[0]!.userId] })).status).toBe(200);
  });

  it("holds additions for the quorum: refusals in order, the last approval from a member's signer starts the delay", async () => {
    const owner = await createTenantFixture(db());
    const admin = client(() => server, owner.authorization);
    const [a1, a2] = await Promise.all([1, 2].map(() => createMemberFixture(db(), owner, "APPROVER")));
    const outsiderMember = await createMemberFixture(db(), owner, "APPROVER");
    const groupId = await addGroup(admin, "Book approvers", [owner, a1!, a2!]);
    expect((await admin.put("/v1/settings/address-book", { additionsRequireApproval: { groupId, quorum: 2 } })).status).toBe(200);

    const created = await admin.post("/v1/address-book", payee());
    expect(created.status, created.text).toBe(201);
    const entry = created.json<Entry>();
    expect(entry).toMatchObject({
      status: "AWAITING_APPROVAL",
      activatesAt: null,
      approvals: { required: [{ groupId, quorum: 2 }], decisions: [] },
    });
    expect(entry.approvals!.approvalHash).toBe(
      addressBookApprovalHash({
        tenantId: owner.tenantId,
        entryId: entry.id,
        networkCode: entry.networkCode,
        address: entry.address,
        label: entry.label,
        assetIds: entry.assetIds,
        createdAt: entry.createdAt,
      }),
    );
    expectError(await admin.post("/v1/address-book", { ...payee(), address: entry.address }), 409, "ADDRESS_ALREADY_LISTED", 1501);
    const listed = await admin.get("/v1/address-book?status=AWAITING_APPROVAL");
    expect(listed.json().entries.map((e: Entry) => e.id)).toEqual([entry.id]);
    expect((await admin.get("/v1/address-book?status=PENDING")).json().entries).toEqual([]);

    const ownerApprover = await approverOf(() => server, t.db, owner);
    const first = await approverOf(() => server, t.db, a1!);
    const outsider = await approverOf(() => server, t.db, outsiderMember);
    expectError(await approveBy(ownerApprover, entry), 403, "SELF_APPROVAL_FORBIDDEN", 1401);
    expectError(await approveBy(outsider, entry), 403, "NOT_AN_APPROVER", 1402);
    expectError(await approveBy(first, entry, `0x${"22".repeat(32)}`), 400, "INVALID_SIGNATURE", 1202);
    expectError(await first.api.post(`/v1/address-book/${entry.id}/approvals`, { decision: "APPROVED" }), 400, "VALIDATION_FAILED", 1001);
    const readKey = await createKeyFixture(db(), a1!, ["read"]);
    expect(answer(await send(readKey, "POST", `/v1/address-book/${entry.id}/approvals`, { decision: "REJECTED", reason: "x" }))).toBe(
      "403 INSUFFICIENT_SCOPE",
    );
    const stranger = await approverOf(() => server, t.db, await createTenantFixture(db()));
    expectError(
      await stranger.api.post(`/v1/address-book/${entry.id}/approvals`, { decision: "REJECTED", reason: "x" }),
      404,
      "NOT_FOUND",
      1030,
    );

    const one = await approveBy(first, entry);
    expect(one.status, one.text).toBe(200);
    expect(one.json()).toMatchObject({ status: "AWAITING_APPROVAL", activatesAt: null });
    expectError(await approveBy(first, entry), 409, "CONFLICT", 1040);

    // The second approver decides in their own reference signer: it rebuilds the hash and asks for the address's last four.
    const signer = await signerFor(a2!);
    const enrolled = await signer.run(["enroll-approver"]);
    expect(enrolled.code, enrolled.stderr).toBe(0);
    const wrong = await signer.run(["approve-entry", entry.id], "zzzz\n");
    expect(wrong.code).toBe(1);
    expect((await admin.get(`/v1/address-book/${entry.id}`)).json().status).toBe("AWAITING_APPROVAL");
    const approved = await signer.run(["approve-entry", entry.id], `${entry.address.slice(-4)}\n`);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain(entry.address);
    expect(approved.stdout).toContain("Status: PENDING");

    const after = (await admin.get(`/v1/address-book/${entry.id}`)).json<Entry>();
    expect(after.status).toBe("PENDING");
    expect(after.approvals!.decisions.map((d) => [d.userId, d.decision])).toEqual([
      [a1!.userId, "APPROVED"],
      [a2!.userId, "APPROVED"],
    ]);
    const approvedAt = new Date(after.approvals!.decisions[1]!.decidedAt).getTime();
    expect(new Date(after.activatesAt!).getTime() - approvedAt).toBe(86_400_000);
    const events = await t.db.select().from(schema.eventOutbox).where(eq(schema.eventOutbox.aggregateId, entry.id));
    expect(events.map((e) => e.type).sort()).toEqual([
      "address_book.entry_added",
      "address_book.entry_approval_recorded",
      "address_book.entry_approval_recorded",
    ]);

    // Another addition, refused in the owner's signer (the adder may reject): removed at once, with the reason.
    const second = (await admin.post("/v1/address-book", payee())).json<Entry>();
    const ownerSigner = await signerFor(owner);
    const rejected = await ownerSigner.run(["reject-entry", second.id, "--reason", "not our exchange"]);
    expect(rejected.code, rejected.stderr).toBe(0);
    expect((await admin.get(`/v1/address-book/${second.id}`)).json()).toMatchObject({
      status: "REMOVED",
      removedBy: owner.userId,
      removalReason: "not our exchange",
    });
    const refused = await signer.run(["approve-entry", second.id], `${second.address.slice(-4)}\n`);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("REMOVED");

    expect(leaks([...signer.secrets, ...ownerSigner.secrets])).toEqual([]);
  });
});
