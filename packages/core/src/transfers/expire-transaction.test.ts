import { findTransaction } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceDeps } from "../deps/service-deps";
import { createTenantFixture, type TenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { holdForApproval } from "../approvals/decisions/hold-for-approval";
import { systemActor } from "../audit/actor";
import {
  createReleasedTransferFixture,
  createSubmittedTransferFixture,
  createTransferWalletFixture,
  signTransferFixture,
  type TransferWalletFixture,
} from "../testing/transfer-fixtures";
import { expireTransaction } from "./expire-transaction";
import { submitSignature } from "./submit-signature";

const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";

describe("expireTransaction", () => {
  const t = useTestDatabase();
  const devnet = useDevnet();
  let deps: ServiceDeps & { close(): Promise<void> };
  let tenant: TenantFixture;
  let wallet: TransferWalletFixture;
  let offsetMs = 0;

  beforeAll(async () => {
    deps = await createTestServiceDeps({
      database: t,
      config: { rpcUrls: { QUANTUM_SANDBOX: [devnet().url] } },
      now: () => new Date(Date.now() + offsetMs),
    });
    tenant = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 2) });
    wallet = await createTransferWalletFixture(deps, { tenantId: tenant.tenantId });
    await devnet().fund(wallet.address, 10n ** 19n);
  });
  afterAll(() => deps?.close());

  const release = (deadline: Date) =>
    createReleasedTransferFixture(deps, {
      tenantId: tenant.tenantId,
      wallet,
      destinationAddress: DESTINATION,
      amount: 1n,
      signingDeadline: deadline,
    });
  const expire = (row: { id: string }) => expireTransaction(deps, { tenantId: tenant.tenantId, transactionId: row.id });
  const reread = async (row: { id: string }) => (await findTransaction(t.db, tenant.tenantId, row.id))!;
  const waiting = (name: "transfers.expire" | "transfers.release-next", data: object) =>
    deps.jobs.boss.findJobs(name, { data, queued: true });

  it("expires once the deadline has passed: EXPIRED/SIGNING_TIMEOUT, next released; a second run does nothing", async () => {
    const deadline = new Date(Date.now() + 3_600_000);
    const row = await release(deadline);
    offsetMs = 3_600_001;
    try {
      expect(await expire(row)).toEqual({ outcome: "expired", subStatus: "SIGNING_TIMEOUT" });
      expect(await expire(row)).toEqual({ outcome: "moved-on", status: "EXPIRED" });
    } finally {
      offsetMs = 0;
    }
    expect(await reread(row)).toMatchObject({
      status: "EXPIRED",
      subStatus: "SIGNING_TIMEOUT",
      statusReason: expect.stringContaining("deadline"),
    });
    expect(await waiting("transfers.release-next", { sourceWalletId: wallet.walletId })).toHaveLength(1);
  });

  it("run early, reschedules itself at the deadline and leaves the transaction alone", async () => {
    const deadline = new Date(Date.now() + 3_600_000);
    const row = await release(deadline);
    expect(await expire(row)).toEqual({ outcome: "not-due", deadline: deadline.toISOString() });
    expect((await reread(row)).status).toBe("PENDING_SIGNATURE");
    const jobs = await waiting("transfers.expire", { transactionId: row.id });
    // The release's job at the deadline, and the rescheduled one: both at the deadline, never earlier.
    expect(jobs.length).toBeGreaterThanOrEqual(1);
    for (const job of jobs) expect(job.startAfter.getTime()).toBe(deadline.getTime());
  });

  it("leaves a signed transaction alone, whenever it runs", async () => {
    const row = await release(new Date(Date.now() + 60_000));
    await submitSignature(deps, {
      tenantId: tenant.tenantId,
      transactionId: row.id,
      signature: signTransferFixture(row.signingHash!, wallet.secretKey),
      actor: { type: "api_key", id: "k" },
    });
    offsetMs = 120_000;
    try {
      expect(await expire(row)).toEqual({ outcome: "moved-on", status: "SIGNED" });
    } finally {
      offsetMs = 0;
    }
    expect((await reread(row)).status).toBe("SIGNED");
  });

  const holdForApprovers = async (approvalDeadline: Date) => {
    const row = await createSubmittedTransferFixture(deps, {
      tenantId: tenant.tenantId,
      wallet,
      destinationAddress: DESTINATION,
      amount: 1n,
    });
    const held = await holdForApproval(deps, {
      row,
      from: "SUBMITTED",
      reason: "held for approval",
      set: { approvals: { required: [], decisions: [] }, approvalDeadline },
      actor: systemActor("test"),
    });
    expect(held.moved).toBe(true);
    return row;
  };

  it("ends AWAITING_APPROVAL at its approval deadline: EXPIRED/APPROVAL_TIMEOUT; run early, waits under its own key", async () => {
    const deadline = new Date(Date.now() + 3_600_000);
    const row = await holdForApprovers(deadline);
    // The move's own job waits at the approval deadline.
    const scheduled = await waiting("transfers.expire", { transactionId: row.id });
    expect(scheduled.map((job) => job.startAfter.getTime())).toContain(deadline.getTime());

    expect(await expire(row)).toEqual({ outcome: "not-due", deadline: deadline.toISOString() });
    const rescheduled = await deps.jobs.boss.findJobs("transfers.expire", { key: `expire-approval:${row.id}`, queued: true });
    expect(rescheduled).toHaveLength(1);
    expect(await deps.jobs.boss.findJobs("transfers.expire", { key: `expire:${row.id}`, queued: true })).toHaveLength(0);
    expect((await reread(row)).status).toBe("AWAITING_APPROVAL");

    offsetMs = 3_600_001;
    try {
      expect(await expire(row)).toEqual({ outcome: "expired", subStatus: "APPROVAL_TIMEOUT" });
    } finally {
      offsetMs = 0;
    }
    expect(await reread(row)).toMatchObject({
      status: "EXPIRED",
      subStatus: "APPROVAL_TIMEOUT",
      statusReason: "no approval quorum before the approval deadline",
    });
  });
});
