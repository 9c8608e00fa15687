import { sql } from "@qc/db";
import { findTransaction, listStatusHistory } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { createTenantFixture, type TenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { createSubmittedTransferFixture, createTransferWalletFixture, type TransferWalletFixture } from "../testing/transfer-fixtures";
import { transitionTransaction } from "./transition-transaction";

const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";

// The one step every status change goes through, on real PostgreSQL: the row locked and moved in
// one statement with its history and audit rows (`moveTransactionWithTrail`), the previous status exact, once.
describe("transitionTransaction", () => {
  const t = useTestDatabase();
  const devnet = useDevnet();
  let deps: ServiceDeps & { close(): Promise<void> };
  let tenant: TenantFixture;
  let wallet: TransferWalletFixture;

  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t, config: { rpcUrls: { QUANTUM_SANDBOX: [devnet().url] } } });
    tenant = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 5) });
    wallet = await createTransferWalletFixture(deps, { tenantId: tenant.tenantId });
  });
  afterAll(() => deps?.close());

  const submitted = () =>
    createSubmittedTransferFixture(deps, { tenantId: tenant.tenantId, wallet, destinationAddress: DESTINATION, amount: 1n });
  const statusEvents = async (transactionId: string) =>
    (
      await t.db.execute<{ previous: string; status: string }>(
        sql`select data->>'previousStatus' as previous, data->'transaction'->>'status' as status from event_outbox
            where aggregate_id = ${transactionId} and type = 'transaction.status_changed' order by sequence`,
      )
    ).rows;

  it("moves a row once when 12 callers race from two statuses, each told the status it moved from", async () => {
    const row = await submitted();
    const move = (from: "SUBMITTED" | "QUEUED", to: "QUEUED" | "CANCELLED") =>
      transitionTransaction(deps, {
        tenantId: tenant.tenantId,
        transactionId: row.id,
        from: [from],
        to,
        reason: `${from} → ${to}`,
        actor: systemActor("transition.test"),
      });
    // Half move SUBMITTED → QUEUED, half QUEUED → CANCELLED: one of the first moves, then one of
    // the second (it waits on the row lock and sees QUEUED), the rest find nothing to move.
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? move("SUBMITTED", "QUEUED") : move("QUEUED", "CANCELLED"))),
    );
    const moved = outcomes.filter((outcome) => outcome.moved);
    expect(moved.map((outcome) => outcome.previousStatus).sort()).toEqual(moved.length === 2 ? ["QUEUED", "SUBMITTED"] : ["SUBMITTED"]);
    const stored = (await findTransaction(t.db, tenant.tenantId, row.id))!;
    const history = (await listStatusHistory(t.db, tenant.tenantId, row.id)).map((h) => `${h.fromStatus ?? "-"}→${h.toStatus}`);
    const events = (await statusEvents(row.id)).map((e) => `${e.previous}→${e.status}`);
    if (moved.length === 2) {
      expect(stored.status).toBe("CANCELLED");
      expect(history).toEqual(["-→SUBMITTED", "SUBMITTED→QUEUED", "QUEUED→CANCELLED"]);
      expect(events).toEqual(["SUBMITTED→QUEUED", "QUEUED→CANCELLED"]);
    } else {
      // Every QUEUED → CANCELLED caller ran before the row was QUEUED.
      expect(stored.status).toBe("QUEUED");
      expect(history).toEqual(["-→SUBMITTED", "SUBMITTED→QUEUED"]);
      expect(events).toEqual(["SUBMITTED→QUEUED"]);
    }
  });

  it("moves nothing, and writes nothing, for a status not expected, another tenant's row or an unknown id", async () => {
    const row = await submitted();
    const other = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 6) });
    const attempt = (tenantId: string, transactionId: string) =>
      transitionTransaction(deps, { tenantId, transactionId, from: ["QUEUED"], to: "CANCELLED", actor: systemActor("transition.test") });
    expect(await attempt(tenant.tenantId, row.id)).toEqual({ moved: false });
    const widened = await transitionTransaction(deps, {
      tenantId: other.tenantId,
      transactionId: row.id,
      from: ["SUBMITTED"],
      to: "CANCELLED",
      actor: systemActor("transition.test"),
    });
    expect(widened).toEqual({ moved: false });
    expect(await attempt(tenant.tenantId, "0193a1b2-0000-7000-8000-000000000000")).toEqual({ moved: false });
    expect((await findTransaction(t.db, tenant.tenantId, row.id))!.status).toBe("SUBMITTED");
    expect(await listStatusHistory(t.db, tenant.tenantId, row.id)).toHaveLength(1);
    expect(await statusEvents(row.id)).toEqual([]);
  });
});
