import { signApproval, verifyApproval } from "@qc/chain";
import { defaultTransferConfig } from "@qc/core";
import { createSessionFixture } from "@qc/core/testing";
import { eq, schema } from "@qc/db";
import { describe, expect, it } from "vitest";
import {
  addApprover,
  addGroup,
  approve,
  approverOf,
  pendingFor,
  recordApprovalHash,
  reject,
  requireApprovals,
  revokeApprovalKey,
  type Approver,
  useApprovalStack,
} from "./approvals-helpers";
import { client, expectError, newSignerKey } from "./custody-helpers";
import { call } from "./harness";
import { minedFrom, signPending, statusChanges, statusPath, waitForRecord, type TransactionJson } from "./transfers-back-helpers";
import { nativeTransfer, type FundedSource } from "./transfers-front-helpers";

/**
 * Approval quorums (CONTRACT §15) through HTTPS, the daemon's real jobs and the devnet: a transfer
 * a REQUIRE_APPROVAL rule holds waits in AWAITING_APPROVAL, each approver signs its approvalHash
 * with an ML-DSA-87 approval key, and the quorum releases it as any allowed transfer.
 */
describe("approvals: AWAITING_APPROVAL, decisions and quorums", () => {
  // RECHECK_AFTER_SECONDS 0: every release from QUEUED takes the policy again, approvals included.
  // A window of one (NONCE_WINDOW=1): a source's second transfer waits QUEUED, where its approvals are verified again at release.
  const { t, devnet, server, funded } = useApprovalStack({
    transfers: { ...defaultTransferConfig(), recheckAfterSeconds: 0, nonceWindow: 1 },
  });

  const HELD = ["AWAITING_APPROVAL", "QUEUED", "PENDING_SIGNATURE", "BLOCKED", "FAILED"];
  const create = async (source: FundedSource, amount = 10n ** 18n): Promise<TransactionJson> => {
    const res = await source.api.createTransfer(nativeTransfer(source, amount, { destinationAddress: newSignerKey().address }));
    expect(res.status, res.text).toBe(201);
    return waitForRecord(source.api, res.json().id, HELD);
  };
  const approvers = (s: FundedSource, n: number) => Promise.all(Array.from({ length: n }, () => addApprover(server, t.db, s.tenant)));

  it("another tenant's transaction is 404 to decide or export, and another member's approval key signs nothing (400)", async () => {
    const a = await funded();
    const b = await funded();
    const [approverA] = await approvers(a, 1);
    const [approverB] = await approvers(b, 1);
    const groupId = await addGroup(a.api, "treasury", [approverA!]);
    await requireApprovals(a.api, [{ groupId, quorum: 1 }]);
    const held = await create(a);
    const hash = recordApprovalHash(held);

    // B's approver, with a valid signature of its own key, names A's transaction: not found, nothing recorded.
    expectError(await approve(approverB!, held.id, { hash }), 404, "NOT_FOUND", 1030);
    expectError(await reject(approverB!, held.id, "not yours"), 404, "NOT_FOUND", 1030);
    expectError(await approverB!.api.get(`/v1/transactions/${held.id}/approvals`), 404, "NOT_FOUND", 1030);
    // A's approver presenting B's approval key id (and a signature by it): the key is not the caller's.
    const borrowed = await approverA!.api.post(`/v1/transactions/${held.id}/approvals`, {
      decision: "APPROVED",
      keyId: approverB!.keyId,
      signature: signApproval(hash, approverB!.secretKey),
    });
    expectError(borrowed, 400, "INVALID_SIGNATURE", 1202);
    expect((await a.api.get(`/v1/transactions/${held.id}`)).json()).toMatchObject({
      status: "AWAITING_APPROVAL",
      approvals: { decisions: [] },
    });
  });

  it("quorum 1 of 1: listed for the approver with its approvalHash, refused to the initiator (1401), to a non-member (1402) and for a bad signature; approved, released, signed and COMPLETED as any other", async () => {
    const s = await funded();
    const [approver, outsider] = await approvers(s, 2);
    const owner = await approverOf(server, t.db, s.tenant);
    const groupId = await addGroup(s.api, "treasury", [approver!, owner]);
    await requireApprovals(s.api, [{ groupId, quorum: 1 }]);

    const held = await create(s);
    expect(held).toMatchObject({
      status: "AWAITING_APPROVAL",
      subStatus: null,
      statusReason: expect.stringContaining("held for approval"),
      policy: { decision: "REQUIRE_APPROVAL", ruleId: "approvals" },
      initiatedBy: { type: "API_KEY", userId: s.tenant.userId, keyId: s.tenant.keyId },
      approvals: { required: [{ groupId, quorum: 1 }], decisions: [] },
      nonce: null,
    });

    const listed = await pendingFor(approver!, held.id);
    expect(listed.approvalRequest).toEqual({
      approvalHash: recordApprovalHash(held),
      context: "QUANTUM-APPROVAL-v1",
      fields: {
        tenantId: s.tenant.tenantId,
        transactionId: held.id,
        chainId: held.chainId,
        sourceAddress: held.sourceAddress,
        destinationAddress: held.destinationAddress,
        assetId: held.assetId,
        amount: held.amount,
        type: "TRANSFER",
      },
    });
    // Not listed for a member of no required group.
    expect((await outsider!.api.get("/v1/approvals?status=PENDING")).json().transactions).toEqual([]);

    expectError(await approve(owner, held.id), 403, "SELF_APPROVAL_FORBIDDEN", 1401);
    expectError(await approve(outsider!, held.id, { hash: listed.approvalRequest.approvalHash }), 403, "NOT_AN_APPROVER", 1402);
    // Signed over another hash, or with a key that is not the approver's: 400, nothing recorded.
    expectError(await approve(approver!, held.id, { hash: `0x${"11".repeat(32)}` }), 400, "INVALID_SIGNATURE", 1202);
    const borrowed = await approver!.api.post(`/v1/transactions/${held.id}/approvals`, {
      decision: "APPROVED",
      keyId: owner.keyId,
      signature: signApproval(listed.approvalRequest.approvalHash, owner.secretKey),
    });
    expectError(borrowed, 400, "INVALID_SIGNATURE", 1202);
    expect((await s.api.get(`/v1/transactions/${held.id}`)).json()).toMatchObject({
      status: "AWAITING_APPROVAL",
      approvals: { decisions: [] },
    });

    const approved = await approve(approver!, held.id);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.json()).toMatchObject({
      status: "QUEUED",
      statusReason: "approved: every group reached its quorum",
      approvals: {
        decisions: [{ userId: approver!.userId, decision: "APPROVED", groupIds: [groupId], keyId: approver!.keyId, reason: null }],
      },
    });
    expectError(await approve(approver!, held.id, { hash: listed.approvalRequest.approvalHash }), 409, "INVALID_TRANSACTION_STATE", 1203);

    // An auditor's export verifies offline with the public key it lists.
    const exported = (await s.api.get(`/v1/transactions/${held.id}/approvals`)).json();
    expect(exported).toMatchObject({ approvalHash: listed.approvalRequest.approvalHash, required: [{ groupId, quorum: 1 }] });
    expect(exported.decisions).toHaveLength(1);
    // Its deadline: APPROVAL_TIMEOUT_SECONDS (one day by default) from the checks' decision, moments ago.
    expect(Date.parse(exported.deadline) - Date.now()).toBeGreaterThan(86_400_000 - 10 * 60_000);
    expect(Date.parse(exported.deadline) - Date.now()).toBeLessThanOrEqual(86_400_000);
    expect(
      verifyApproval({
        approvalHash: exported.approvalHash,
        signature: exported.decisions[0].signature,
        publicKey: exported.decisions[0].publicKey,
      }),
    ).toBe(true);

    await waitForRecord(s.api, held.id, ["PENDING_SIGNATURE"]);
    await signPending(s.api, held.id, s.key.secretKey);
    expect(await waitForRecord(s.api, held.id, ["COMPLETED", "FAILED", "BLOCKED"])).toMatchObject({ status: "COMPLETED" });
    expect(await statusPath(s.api, held.id)).toEqual([
      "SUBMITTED",
      "AWAITING_APPROVAL",
      "QUEUED",
      "PENDING_SIGNATURE",
      "SIGNED",
      "BROADCASTING",
      "CONFIRMING",
      "COMPLETED",
    ]);
    const recorded = await t.db.select().from(schema.eventOutbox).where(eq(schema.eventOutbox.aggregateId, held.id));
    expect(recorded.filter((e) => e.type === "transaction.approval_recorded")).toHaveLength(1);
    const audit = await t.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.action, "transaction.approval_recorded"));
    expect(audit.filter((row) => row.targetId === held.id)).toHaveLength(1);
  });

  it("2 of 3 in one group and 1 in another: one member in both groups counts for both", async () => {
    const s = await funded();
    const [a1, a2, both, b1] = await approvers(s, 4);
    const treasury = await addGroup(s.api, "treasury", [a1!, a2!, both!]);
    const risk = await addGroup(s.api, "risk", [both!, b1!]);
    await requireApprovals(s.api, [
      { groupId: treasury, quorum: 2 },
      { groupId: risk, quorum: 1 },
    ]);
    const held = await create(s);
    expect(held.status).toBe("AWAITING_APPROVAL");

    const first = await approve(a1!, held.id);
    expect(first.status, first.text).toBe(200);
    expect(first.json()).toMatchObject({
      status: "AWAITING_APPROVAL",
      approvals: { decisions: [{ userId: a1!.userId, groupIds: [treasury] }] },
    });
    const last = await approve(both!, held.id);
    expect(last.status, last.text).toBe(200);
    expect(last.json().status).toBe("QUEUED");
    expect(last.json().approvals.decisions[1]).toMatchObject({ userId: both!.userId, groupIds: [treasury, risk].sort() });
    // Decided: no longer listed for anyone.
    expect((await b1!.api.get("/v1/approvals?status=PENDING")).json().transactions).toEqual([]);
    expectError(await reject(a2!, held.id, "too late"), 409, "INVALID_TRANSACTION_STATE", 1203);
    expect(await waitForRecord(s.api, held.id, ["PENDING_SIGNATURE"])).toMatchObject({ nonce: 0 });
  });

  it("one rejection ends it REJECTED / REJECTED_BY_APPROVER with the approver's reason; the initiator may reject", async () => {
    const s = await funded();
    const [a1] = await approvers(s, 1);
    const owner = await approverOf(server, t.db, s.tenant);
    const groupId = await addGroup(s.api, "treasury", [a1!, owner]);
    await requireApprovals(s.api, [{ groupId, quorum: 2 }]);

    const first = await create(s);
    expect((await approve(a1!, first.id)).status).toBe(200);
    // From the dashboard: a session decides too (the route's signer scope is a key's limit).
    const session = await createSessionFixture({ db: t.db }, s.tenant);
    const rejected = await reject({ ...owner, api: client(server, session.authorization) }, first.id, "wrong beneficiary");
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.json()).toMatchObject({
      status: "REJECTED",
      subStatus: "REJECTED_BY_APPROVER",
      statusReason: "wrong beneficiary",
      approvals: {
        decisions: [{ decision: "APPROVED" }, { userId: s.tenant.userId, decision: "REJECTED", keyId: null, reason: "wrong beneficiary" }],
      },
    });
    expect(await statusPath(s.api, first.id)).toEqual(["SUBMITTED", "AWAITING_APPROVAL", "REJECTED"]);
    // A rejection carries no signature; an approval without one is a validation error.
    expect((await a1!.api.post(`/v1/transactions/${first.id}/approvals`, { decision: "APPROVED", keyId: a1!.keyId })).status).toBe(400);
  });

  it("cancel while awaiting: CANCELLED / CANCELLED_BY_USER, and no decision is taken after it", async () => {
    const s = await funded();
    const [a1] = await approvers(s, 1);
    const groupId = await addGroup(s.api, "treasury", [a1!]);
    await requireApprovals(s.api, [{ groupId, quorum: 1 }]);
    const held = await create(s);
    const listed = await pendingFor(a1!, held.id);
    const cancelled = await s.api.post(`/v1/transactions/${held.id}/cancel`, { reason: "changed our mind" });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: "CANCELLED", subStatus: "CANCELLED_BY_USER" });
    expectError(await approve(a1!, held.id, { hash: listed.approvalRequest.approvalHash }), 409, "INVALID_TRANSACTION_STATE", 1203);
    expect((await a1!.api.get("/v1/approvals?status=PENDING")).json().transactions).toEqual([]);
  });

  it("two approvals at once for the last place: the row lock takes them one after the other, the transfer is released once", async () => {
    const s = await funded();
    const [a1, a2, a3] = await approvers(s, 3);
    const groupId = await addGroup(s.api, "treasury", [a1!, a2!, a3!]);
    await requireApprovals(s.api, [{ groupId, quorum: 2 }]);
    const held = await create(s);
    expect((await approve(a1!, held.id)).status).toBe(200);
    const hash = (await pendingFor(a2!, held.id)).approvalRequest.approvalHash;
    const answers = await Promise.all([approve(a2!, held.id, { hash }), approve(a3!, held.id, { hash })]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409]);
    expect(answers.find((res) => res.status === 200)!.json().status).toBe("QUEUED");
    await waitForRecord(s.api, held.id, ["PENDING_SIGNATURE"]);
    const changes = await statusChanges(t.db, held.id);
    expect(changes.filter((change) => change.to === "QUEUED")).toHaveLength(1);
    expect(changes.filter((change) => change.to === "PENDING_SIGNATURE")).toHaveLength(1);
    const decisions = await t.db.select().from(schema.transactionApprovals).where(eq(schema.transactionApprovals.transactionId, held.id));
    expect(decisions).toHaveLength(2);
  });

  it("two approvals at once that together make the quorum: both recorded, the second counts the first, released once", async () => {
    const s = await funded();
    const [a1, a2] = await approvers(s, 2);
    const groupId = await addGroup(s.api, "treasury", [a1!, a2!]);
    await requireApprovals(s.api, [{ groupId, quorum: 2 }]);
    const held = await create(s);
    const hash = (await pendingFor(a1!, held.id)).approvalRequest.approvalHash;
    const answers = await Promise.all([approve(a1!, held.id, { hash }), approve(a2!, held.id, { hash })]);
    expect(answers.map((res) => res.status)).toEqual([200, 200]);
    expect(answers.map((res) => res.json().status).sort()).toEqual(["AWAITING_APPROVAL", "QUEUED"]);
    await waitForRecord(s.api, held.id, ["PENDING_SIGNATURE"]);
    expect((await statusChanges(t.db, held.id)).filter((change) => change.to === "QUEUED")).toHaveLength(1);
  });

  /** An allowed transfer holding the source's nonce slot (unsigned), and a held one that queues behind it once approved. */
  const heldBehindAnother = async (s: FundedSource, quorumOf: Approver[], groupId: string) => {
    await requireApprovals(s.api, [{ groupId, quorum: quorumOf.length }], 5n * 10n ** 17n);
    const ahead = await create(s, 10n ** 17n);
    expect(ahead.status).toBe("PENDING_SIGNATURE");
    const held = await create(s);
    expect(held.status).toBe("AWAITING_APPROVAL");
    for (const approver of quorumOf) expect((await approve(approver, held.id)).status).toBe(200);
    expect((await s.api.get(`/v1/transactions/${held.id}`)).json().status).toBe("QUEUED");
    return { ahead, held };
  };

  it("a removed approver's approval stops counting before release: back to AWAITING_APPROVAL, saying why, never released", async () => {
    const s = await funded();
    const [a1, a2] = await approvers(s, 2);
    const groupId = await addGroup(s.api, "treasury", [a1!, a2!]);
    const { ahead, held } = await heldBehindAnother(s, [a1!, a2!], groupId);

    const removed = await call(server(), `/v1/members/${a2!.userId}`, {
      method: "DELETE",
      headers: { authorization: s.tenant.authorization },
    });
    expect(removed.status, removed.text).toBe(204);
    await signPending(s.api, ahead.id, s.key.secretKey);
    const back = await waitForRecord(s.api, held.id, ["AWAITING_APPROVAL", "PENDING_SIGNATURE"]);
    expect(back).toMatchObject({ status: "AWAITING_APPROVAL", nonce: null, signingHash: null });
    expect(back.statusReason).toContain("approval quorum no longer met before release");
    expect(back.statusReason).toContain(a2!.userId);
    expect(back.statusReason).toContain(`approver group ${groupId} has 1 of 2 approval(s)`);
    expect(await statusPath(s.api, held.id)).toEqual(["SUBMITTED", "AWAITING_APPROVAL", "QUEUED", "AWAITING_APPROVAL"]);
    const audit = await t.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.action, "transaction.awaiting_approval"));
    expect(audit.filter((row) => row.targetId === held.id)).toHaveLength(2);
    expect(await waitForRecord(s.api, ahead.id, ["COMPLETED"])).toMatchObject({ status: "COMPLETED" });
  });

  it("a revoked approval key's approval stops counting before release; a new approver completes the quorum and it completes", async () => {
    const s = await funded();
    const [a1, a2, a3] = await approvers(s, 3);
    const groupId = await addGroup(s.api, "treasury", [a1!, a2!, a3!]);
    const { ahead, held } = await heldBehindAnother(s, [a1!, a2!], groupId);

    await revokeApprovalKey(server, a1!);
    await signPending(s.api, ahead.id, s.key.secretKey);
    const back = await waitForRecord(s.api, held.id, ["AWAITING_APPROVAL", "PENDING_SIGNATURE"]);
    expect(back.status).toBe("AWAITING_APPROVAL");
    expect(back.statusReason).toContain(`approval key ${a1!.keyId} was revoked`);

    const third = await approve(a3!, held.id);
    expect(third.status, third.text).toBe(200);
    expect(third.json().status).toBe("QUEUED");
    await waitForRecord(s.api, held.id, ["PENDING_SIGNATURE"]);
    await signPending(s.api, held.id, s.key.secretKey);
    expect(await waitForRecord(s.api, held.id, ["COMPLETED", "FAILED", "BLOCKED"])).toMatchObject({ status: "COMPLETED" });
  });

  it("a policy tightened while a transfer waits in QUEUED: decided again before release, it is held for approval instead, then approved and released", async () => {
    const s = await funded();
    const [a1] = await approvers(s, 1);
    const groupId = await addGroup(s.api, "treasury", [a1!]);
    const ahead = await create(s, 10n ** 17n);
    const queued = await create(s);
    expect([ahead.status, queued.status]).toEqual(["PENDING_SIGNATURE", "QUEUED"]);
    // Above the amount of the one ahead: that one, signed, is still allowed at its broadcast.
    await requireApprovals(s.api, [{ groupId, quorum: 1 }], 5n * 10n ** 17n);

    await signPending(s.api, ahead.id, s.key.secretKey);
    const held = await waitForRecord(s.api, queued.id, ["AWAITING_APPROVAL", "PENDING_SIGNATURE"]);
    expect(held).toMatchObject({
      status: "AWAITING_APPROVAL",
      statusReason: "the policy decided again before release now requires approval",
      policy: { decision: "REQUIRE_APPROVAL", ruleId: "approvals" },
      approvals: { required: [{ groupId, quorum: 1 }], decisions: [] },
      nonce: null,
    });
    expect((await approve(a1!, queued.id)).json().status).toBe("QUEUED");
    expect(await waitForRecord(s.api, queued.id, ["PENDING_SIGNATURE", "AWAITING_APPROVAL"])).toMatchObject({
      status: "PENDING_SIGNATURE",
      nonce: ahead.nonce + 1,
    });
    expect(await statusPath(s.api, queued.id)).toEqual(["SUBMITTED", "QUEUED", "AWAITING_APPROVAL", "QUEUED", "PENDING_SIGNATURE"]);
  });

  it("a policy tightened after signing: decided again at broadcast, a transfer it now holds for approval is BLOCKED, nothing sent", async () => {
    const s = await funded();
    const [a1] = await approvers(s, 1);
    const groupId = await addGroup(s.api, "treasury", [a1!]);
    const released = await create(s);
    expect(released.status).toBe("PENDING_SIGNATURE");
    await requireApprovals(s.api, [{ groupId, quorum: 1 }]);
    await signPending(s.api, released.id, s.key.secretKey);
    const blocked = await waitForRecord(s.api, released.id, ["BLOCKED", "BROADCASTING", "CONFIRMING", "COMPLETED", "FAILED"]);
    expect(blocked).toMatchObject({ status: "BLOCKED", subStatus: "BLOCKED_BY_POLICY", chainTxHash: null, approvals: null });
    expect(blocked.statusReason).toContain("the approvals it now requires were not given before it was signed");
    expect(await statusPath(s.api, released.id)).toEqual(["SUBMITTED", "PENDING_SIGNATURE", "SIGNED", "BLOCKED"]);
    expect(await minedFrom(devnet(), s.wallet.address)).toBe(0);
  });
});
