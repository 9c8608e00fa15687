import { generateKeyPair, signApproval, signApproverKeyProof } from "@qc/chain";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { createApproverGroup } from "../approvals/groups/create-approver-group";
import { deleteApproverGroup } from "../approvals/groups/delete-approver-group";
import { updateApproverGroup } from "../approvals/groups/update-approver-group";
import { enrollApprovalKey } from "../approvals/keys/enroll-approval-key";
import { revokeApprovalKey } from "../approvals/keys/revoke-approval-key";
import { decideTransferPolicy } from "../policies/decide-transfer-policy";
import { replacePolicy } from "../policies/replace-policy";
import { getAddressBookSettings, replaceAddressBookSettings } from "../settings/address-book-settings";
import { createTenantFixture, type TenantFixture } from "../testing/fixtures";
import { createMemberFixture } from "../testing/member-fixtures";
import { POLICY_TRANSFER } from "../testing/policy-fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import type { AddressBookEntryRecord } from "./address-book-entry-record";
import { createAddressBookEntry } from "./create-address-book-entry";
import { decideAddressBookEntry } from "./decide-address-book-entry";
import { expireAddressBookEntry } from "./expire-address-book-entry";
import { getAddressBookEntry, listAddressBookEntries } from "./list-address-book-entries";

const DAY_MS = 86_400_000;

interface Approver {
  userId: string;
  actor: Actor;
  keyId: string;
  secretKey: Uint8Array;
}

/**
 * Additions that need approval (CONTRACT §16, decided as §15) against the database, the real
 * verifier pool and the service's clock fixed: the setting and the group it holds, AWAITING_APPROVAL
 * entries that count for nothing, the quorum (the member who added it may only reject, an outsider
 * is refused, one decision each, approvals judged again when counted), the delay starting at the
 * quorum, a rejection, the timeout job, and two approvals at once for the last place.
 */
describe("address-book additions that need approval", () => {
  const t = useTestDatabase();
  const pepper = Buffer.alloc(32, 7);
  let clock = new Date("2026-11-26T09:00:00.000Z");
  let deps: ServiceDeps & { close(): Promise<void> };
  let owner: TenantFixture;
  let ownerApprover: Approver;
  let approvers: Approver[];
  let outsider: Approver;
  let groupId: string;

  const enroll = async (tenantId: string, userId: string): Promise<Approver> => {
    const { publicKey, secretKey } = generateKeyPair();
    const actor: Actor = { type: "user", id: userId };
    const key = await enrollApprovalKey(deps, {
      tenantId,
      userId,
      actor,
      publicKey: `0x${bytesToHex(publicKey)}`,
      proof: signApproverKeyProof({ tenantId, userId, secretKey }),
    });
    return { userId, actor, keyId: key.keyId, secretKey };
  };

  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t, now: () => clock });
    owner = await createTenantFixture({ db: t.db, pepper });
    ownerApprover = await enroll(owner.tenantId, owner.userId);
    approvers = [];
    for (let i = 0; i < 3; i++) {
      const member = await createMemberFixture({ db: t.db, pepper }, owner, "APPROVER");
      approvers.push(await enroll(owner.tenantId, member.userId));
    }
    const other = await createMemberFixture({ db: t.db, pepper }, owner, "APPROVER");
    outsider = await enroll(owner.tenantId, other.userId);
    const group = await createApproverGroup(deps, {
      tenantId: owner.tenantId,
      name: "Treasury",
      memberIds: [owner.userId, ...approvers.map((a) => a.userId)],
      actor: ownerApprover.actor,
    });
    groupId = group.id;
  });
  afterAll(() => deps?.close());

  const setting = (additionsRequireApproval: { groupId: string; quorum: number } | null) =>
    replaceAddressBookSettings(deps, { tenantId: owner.tenantId, actor: ownerApprover.actor, additionsRequireApproval });
  const add = (address: string): Promise<AddressBookEntryRecord> =>
    createAddressBookEntry(deps, {
      tenantId: owner.tenantId,
      networkCode: "QUANTUM_SANDBOX",
      address,
      label: `Payee ${address.slice(2, 6)}`,
      actor: ownerApprover.actor,
    });
  const approve = (entry: AddressBookEntryRecord, who: Approver, hash: Hex = entry.approvals!.approvalHash as Hex) =>
    decideAddressBookEntry(deps, {
      tenantId: owner.tenantId,
      entryId: entry.id,
      actor: who.actor,
      decision: "APPROVED",
      keyId: who.keyId,
      signature: signApproval(hash, who.secretKey),
    });
  const reject = (entry: AddressBookEntryRecord, who: Approver, reason: string) =>
    decideAddressBookEntry(deps, { tenantId: owner.tenantId, entryId: entry.id, actor: who.actor, decision: "REJECTED", reason });
  const read = (entry: AddressBookEntryRecord) => getAddressBookEntry(deps, { tenantId: owner.tenantId, entryId: entry.id });
  const events = (entryId: string, type: string) =>
    t.db
      .select()
      .from(schema.eventOutbox)
      .where(and(eq(schema.eventOutbox.aggregateId, entryId), eq(schema.eventOutbox.type, type)));
  const jobs = (name: string, entryId: string) => deps.jobs.boss.findJobs(name, { data: { entryId }, queued: true });

  it("validates the setting as a policy's approvals, and then holds the group like a policy does", async () => {
    expect(await getAddressBookSettings(deps, { tenantId: owner.tenantId })).toEqual({ additionsRequireApproval: null, updatedAt: null });
    const unknown = "0194f2c6-0000-7000-8000-000000000000";
    await expect(setting({ groupId: unknown, quorum: 1 })).rejects.toMatchObject({
      error: "VALIDATION_FAILED",
      details: { fields: [{ path: "additionsRequireApproval.groupId" }] },
    });
    await expect(setting({ groupId, quorum: 5 })).rejects.toMatchObject({
      error: "VALIDATION_FAILED",
      details: { fields: [{ path: "additionsRequireApproval.quorum" }] },
    });
    const other = await createTenantFixture({ db: t.db, pepper });
    await expect(
      replaceAddressBookSettings(deps, {
        tenantId: other.tenantId,
        actor: { type: "user", id: other.userId },
        additionsRequireApproval: { groupId, quorum: 1 },
      }),
    ).rejects.toMatchObject({ error: "VALIDATION_FAILED" });

    expect(await setting({ groupId, quorum: 2 })).toEqual({
      additionsRequireApproval: { groupId, quorum: 2 },
      updatedAt: clock.toISOString(),
    });
    const audit = await t.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.action, "settings.address_book_replaced"));
    expect(audit.map((row) => row.details)).toEqual([{ before: null, after: { groupId, quorum: 2 } }]);

    const del = deleteApproverGroup(deps, { tenantId: owner.tenantId, groupId, actor: ownerApprover.actor });
    await expect(del).rejects.toMatchObject({
      error: "CONFLICT",
      details: { settings: { additionsRequireApproval: { groupId, quorum: 2 } } },
    });
    await expect(del).rejects.toThrow(/additionsRequireApproval/);
    await expect(
      updateApproverGroup(deps, { tenantId: owner.tenantId, groupId, memberIds: [approvers[0]!.userId], actor: ownerApprover.actor }),
    ).rejects.toMatchObject({ error: "CONFLICT" });
  });

  it("adds an entry AWAITING_APPROVAL with no activatesAt: it holds its address and counts for nothing", async () => {
    await setting({ groupId, quorum: 2 });
    clock = new Date("2026-11-26T10:00:00.000Z");
    const destination = "0x7777777777777777777777777777777777777777";
    const entry = await add(destination);
    expect(entry).toMatchObject({
      status: "AWAITING_APPROVAL",
      activatesAt: null,
      approvals: {
        required: [{ groupId, quorum: 2 }],
        decisions: [],
        deadline: new Date(clock.getTime() + DAY_MS).toISOString(),
        approvedAt: null,
      },
    });
    await expect(add(destination)).rejects.toMatchObject({ error: "ADDRESS_ALREADY_LISTED" });
    const awaiting = await listAddressBookEntries(deps, { tenantId: owner.tenantId, status: "AWAITING_APPROVAL", limit: 50 });
    expect(awaiting.entries.map((e) => e.id)).toContain(entry.id);
    for (const status of ["PENDING", "ACTIVE"] as const)
      expect((await listAddressBookEntries(deps, { tenantId: owner.tenantId, status, limit: 50 })).entries.map((e) => e.id)).not.toContain(
        entry.id,
      );
    expect(await jobs("address-book.announce-activation", entry.id)).toHaveLength(0);
    const timeout = await jobs("address-book.expire-approval", entry.id);
    expect(timeout.map((job) => job.startAfter.toISOString())).toEqual([entry.approvals!.deadline]);

    await replacePolicy(deps, {
      tenantId: owner.tenantId,
      actor: ownerApprover.actor,
      document: {
        defaultAction: "ALLOW",
        rules: [{ id: "book-only", name: "Book only", action: "BLOCK", match: { destination: "NOT_ADDRESS_BOOK" } }],
      },
    });
    const later = new Date(clock.getTime() + 30 * DAY_MS);
    const decision = await decideTransferPolicy(t.db, {
      tenantId: owner.tenantId,
      transfer: { ...POLICY_TRANSFER, destinationAddress: destination },
      at: later,
      now: later,
    });
    expect(decision).toMatchObject({ decision: "BLOCK", destinationLabel: null });
  });

  it("takes the group's quorum: the adder never approves, outsiders and bad signatures are refused, one decision each; the delay starts at the quorum", async () => {
    clock = new Date("2026-11-26T11:00:00.000Z");
    const entry = await add("0x8888888888888888888888888888888888888888");
    await expect(approve(entry, ownerApprover)).rejects.toMatchObject({ error: "SELF_APPROVAL_FORBIDDEN" });
    await expect(approve(entry, outsider)).rejects.toMatchObject({ error: "NOT_AN_APPROVER" });
    const [a1, a2, a3] = approvers as [Approver, Approver, Approver];
    // Signed over another hash (a transfer's is another domain), or with another member's key: refused.
    await expect(approve(entry, a1, `0x${"11".repeat(32)}`)).rejects.toMatchObject({ error: "INVALID_SIGNATURE" });
    await expect(approve(entry, { ...a1, keyId: a2.keyId, secretKey: a2.secretKey })).rejects.toMatchObject({ error: "INVALID_SIGNATURE" });

    const first = await approve(entry, a1);
    expect(first).toMatchObject({ status: "AWAITING_APPROVAL", activatesAt: null });
    expect(first.approvals!.decisions).toEqual([
      { userId: a1.userId, decision: "APPROVED", groupIds: [groupId], keyId: a1.keyId, reason: null, decidedAt: clock.toISOString() },
    ]);
    await expect(approve(entry, a1)).rejects.toMatchObject({ error: "CONFLICT" });
    await expect(reject(entry, a1, "changed my mind")).rejects.toMatchObject({ error: "CONFLICT" });

    // The quorum is met an hour later: the delay runs from then, not from the addition.
    clock = new Date("2026-11-26T12:00:00.000Z");
    const quorumAt = clock;
    const approved = await approve(entry, a2);
    expect(approved).toMatchObject({
      status: "PENDING",
      activatesAt: new Date(quorumAt.getTime() + DAY_MS).toISOString(),
      approvals: { approvedAt: quorumAt.toISOString() },
    });
    expect(approved.approvals!.decisions.map((d) => d.userId)).toEqual([a1.userId, a2.userId]);
    const activation = await jobs("address-book.announce-activation", entry.id);
    expect(activation.map((job) => job.startAfter.toISOString())).toEqual([approved.activatesAt]);
    await expect(approve(entry, a3)).rejects.toMatchObject({ error: "CONFLICT" });

    expect(await events(entry.id, "address_book.entry_approval_recorded")).toHaveLength(2);
    const audit = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.targetId, entry.id), eq(schema.auditEvents.action, "address_book.entry_approval_recorded")));
    expect(audit).toHaveLength(2);

    const transfer = { ...POLICY_TRANSFER, destinationAddress: entry.address };
    const at = (ms: number) => new Date(quorumAt.getTime() + DAY_MS + ms);
    const decide = (when: Date) => decideTransferPolicy(t.db, { tenantId: owner.tenantId, transfer, at: when, now: when });
    expect((await decide(at(-1))).decision).toBe("BLOCK");
    expect(await decide(at(0))).toMatchObject({ decision: "ALLOW", destinationLabel: entry.label });
    clock = at(0);
    expect((await read(entry)).status).toBe("ACTIVE");
  });

  it("judges approvals again when counting: one whose key was revoked since does not count", async () => {
    clock = new Date("2026-11-26T13:00:00.000Z");
    const entry = await add("0x9999999999999999999999999999999999999999");
    const [a1, a2, a3] = approvers as [Approver, Approver, Approver];
    await approve(entry, a1);
    await revokeApprovalKey(deps, { tenantId: owner.tenantId, userId: a1.userId, keyId: a1.keyId, actor: a1.actor });
    expect(await approve(entry, a2)).toMatchObject({ status: "AWAITING_APPROVAL" });
    expect(await approve(entry, a3)).toMatchObject({ status: "PENDING" });
    approvers[0] = await enroll(owner.tenantId, a1.userId);
  });

  it("removes the entry on a rejection — the adder may reject — with who and why; the address may be added again", async () => {
    clock = new Date("2026-11-26T14:00:00.000Z");
    const entry = await add("0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    await approve(entry, approvers[0]!);
    const rejected = await reject(entry, ownerApprover, "not our exchange");
    expect(rejected).toMatchObject({
      status: "REMOVED",
      activatesAt: null,
      removedAt: clock.toISOString(),
      removedBy: owner.userId,
      removalReason: "not our exchange",
    });
    expect(rejected.approvals!.decisions.map((d) => d.decision)).toEqual(["APPROVED", "REJECTED"]);
    expect(await events(entry.id, "address_book.entry_removed")).toHaveLength(1);
    await expect(approve(entry, approvers[1]!)).rejects.toMatchObject({ error: "CONFLICT" });
    expect(await add(entry.address)).toMatchObject({ status: "AWAITING_APPROVAL" });
  });

  it("removes an entry still waiting at its deadline by the timeout job, once; an early run waits for the deadline", async () => {
    clock = new Date("2026-11-26T15:00:00.000Z");
    const entry = await add("0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
    const run = () => expireAddressBookEntry(deps, { tenantId: owner.tenantId, entryId: entry.id });
    clock = new Date(new Date(entry.approvals!.deadline).getTime() - 1);
    expect(await run()).toEqual({ removed: false, reason: "not due yet" });
    expect((await read(entry)).status).toBe("AWAITING_APPROVAL");
    clock = new Date(entry.approvals!.deadline);
    const [one, two] = await Promise.all([run(), run()]);
    expect([one, two]).toEqual(expect.arrayContaining([{ removed: true }, { removed: false, reason: "not awaiting approval" }]));
    expect(await read(entry)).toMatchObject({
      status: "REMOVED",
      removedBy: "address-book.expire-approval",
      removalReason: expect.stringContaining("deadline"),
    });
    expect(await events(entry.id, "address_book.entry_removed")).toHaveLength(1);
    await expect(approve(entry, approvers[0]!)).rejects.toMatchObject({ error: "CONFLICT" });

    // An entry approved in time is left alone by its timeout job.
    clock = new Date("2026-11-26T16:00:00.000Z");
    const approved = await add("0xcccccccccccccccccccccccccccccccccccccccc");
    await approve(approved, approvers[0]!);
    await approve(approved, approvers[1]!);
    clock = new Date(new Date(approved.approvals!.deadline).getTime() + 1000);
    expect(await expireAddressBookEntry(deps, { tenantId: owner.tenantId, entryId: approved.id })).toEqual({
      removed: false,
      reason: "not awaiting approval",
    });
    expect((await read(approved)).status).toBe("ACTIVE");
  });

  it("completes the quorum once when two approvals for the last place arrive at once", async () => {
    clock = new Date("2026-11-26T17:00:00.000Z");
    const entry = await add("0xdddddddddddddddddddddddddddddddddddddddd");
    await approve(entry, approvers[0]!);
    const results = await Promise.allSettled([approve(entry, approvers[1]!), approve(entry, approvers[2]!)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(refused.map((r) => (r.reason as { error: string }).error)).toEqual(["CONFLICT"]);
    const after = await read(entry);
    expect(after).toMatchObject({ status: "PENDING", approvals: { approvedAt: clock.toISOString() } });
    expect(after.approvals!.decisions).toHaveLength(2);
    expect(await jobs("address-book.announce-activation", entry.id)).toHaveLength(1);
    expect(await events(entry.id, "address_book.entry_approval_recorded")).toHaveLength(2);
  });

  it("keeps waiting entries' requirement when the setting is turned off; new additions are PENDING again; other tenants get 404", async () => {
    clock = new Date("2026-11-26T18:00:00.000Z");
    const waiting = await add("0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee");
    expect(await setting(null)).toMatchObject({ additionsRequireApproval: null });
    expect(await add("0xffffffffffffffffffffffffffffffffffffffff")).toMatchObject({ status: "PENDING", approvals: null });
    expect(await read(waiting)).toMatchObject({ status: "AWAITING_APPROVAL", approvals: { required: [{ groupId, quorum: 2 }] } });
    // The group is free again.
    await updateApproverGroup(deps, { tenantId: owner.tenantId, groupId, name: "Treasury (renamed)", actor: ownerApprover.actor });
    const other = await createTenantFixture({ db: t.db, pepper });
    await expect(
      decideAddressBookEntry(deps, {
        tenantId: other.tenantId,
        entryId: waiting.id,
        actor: { type: "user", id: other.userId },
        decision: "REJECTED",
        reason: "x",
      }),
    ).rejects.toMatchObject({ error: "NOT_FOUND" });
  });
});
