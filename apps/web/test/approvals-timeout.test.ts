import { defaultTransferConfig } from "@qc/core";
import { describe, expect, it } from "vitest";
import { addApprover, addGroup, approve, pendingFor, requireApprovals, useApprovalStack } from "./approvals-helpers";
import { expectError, newSignerKey } from "./custody-helpers";
import { statusPath, waitForRecord } from "./transfers-back-helpers";
import { nativeTransfer } from "./transfers-front-helpers";

/**
 * APPROVAL_TIMEOUT_SECONDS (CONTRACT §15) through the daemon's `transfers.expire` job: no quorum
 * before the approval deadline ends the transfer EXPIRED / APPROVAL_TIMEOUT. The timeout is 3 s here.
 */
describe("approvals: no quorum before the approval deadline", () => {
  const { t, server, funded } = useApprovalStack({ transfers: { ...defaultTransferConfig(), approvalTimeoutSeconds: 3 } });

  it("expires EXPIRED / APPROVAL_TIMEOUT with one approval of two; later decisions are refused, and the source's next transfer goes on", async () => {
    const s = await funded();
    const [a1, a2] = await Promise.all([addApprover(server, t.db, s.tenant), addApprover(server, t.db, s.tenant)]);
    const groupId = await addGroup(s.api, "treasury", [a1!, a2!]);
    await requireApprovals(s.api, [{ groupId, quorum: 2 }], 5n * 10n ** 17n);

    const res = await s.api.createTransfer(nativeTransfer(s, 10n ** 18n, { destinationAddress: newSignerKey().address }));
    expect(res.status, res.text).toBe(201);
    const held = await waitForRecord(s.api, res.json().id, ["AWAITING_APPROVAL", "QUEUED", "BLOCKED", "FAILED"]);
    expect(held.status).toBe("AWAITING_APPROVAL");
    const listed = await pendingFor(a2!, held.id);
    expect((await approve(a1!, held.id)).status).toBe(200);
    // A younger, allowed transfer of the source is not held up by the one awaiting approval.
    const younger = await s.api.createTransfer(nativeTransfer(s, 10n ** 17n, { destinationAddress: newSignerKey().address }));
    expect(await waitForRecord(s.api, younger.json().id, ["PENDING_SIGNATURE", "QUEUED", "FAILED"])).toMatchObject({
      status: "PENDING_SIGNATURE",
    });

    const expired = await waitForRecord(s.api, held.id, ["EXPIRED", "QUEUED", "PENDING_SIGNATURE"], 30_000);
    expect(expired).toMatchObject({
      status: "EXPIRED",
      subStatus: "APPROVAL_TIMEOUT",
      statusReason: "no approval quorum before the approval deadline",
      nonce: null,
    });
    expect(await statusPath(s.api, held.id)).toEqual(["SUBMITTED", "AWAITING_APPROVAL", "EXPIRED"]);
    expectError(await approve(a2!, held.id, { hash: listed.approvalRequest.approvalHash }), 409, "INVALID_TRANSACTION_STATE", 1203);
  });
});
