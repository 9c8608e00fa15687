import { estimateQuantumFees, NETWORKS } from "@qc/chain";
import { eq, schema } from "@qc/db";
import { findTransaction, listStatusHistory } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { createTenantFixture, type TenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { createTransferWalletFixture, signTransferFixture, type TransferWalletFixture } from "../testing/transfer-fixtures";
import { insertReleasedTransaction } from "./insert-released-transaction";
import { submitSignature } from "./submit-signature";

describe("insertReleasedTransaction", () => {
  const t = useTestDatabase();
  const devnet = useDevnet();
  let deps: ServiceDeps & { close(): Promise<void> };
  let tenant: TenantFixture;
  let wallet: TransferWalletFixture;

  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t, config: { rpcUrls: { QUANTUM_SANDBOX: [devnet().url] } } });
    tenant = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 7) });
    wallet = await createTransferWalletFixture(deps, { tenantId: tenant.tenantId });
  });
  afterAll(() => deps?.close());

  it("stores a NONCE_FILL released (PENDING_SIGNATURE, rebuilt signing hash, deadline), with its trail and expiry job, and no usage", async () => {
    const fees = await estimateQuantumFees(deps.chain.client("QUANTUM_SANDBOX"));
    const row = await t.db.transaction((tx) =>
      insertReleasedTransaction(tx, deps, {
        values: {
          tenantId: tenant.tenantId,
          type: "NONCE_FILL",
          networkCode: "QUANTUM_SANDBOX",
          chainId: NETWORKS.QUANTUM_SANDBOX.chainId,
          sourceWalletId: wallet.walletId,
          sourceAddress: wallet.address,
          destinationAddress: wallet.address,
          assetId: null,
          amount: "0",
          requiredConfirmations: 1,
        },
        asset: null,
        release: { nonce: 3, fees: { gasLimit: 25_200n, ...fees } },
        actor: systemActor("transfers.release-next"),
        auditDetails: { fills: 3 },
      }),
    );

    const stored = (await findTransaction(t.db, tenant.tenantId, row.id))!;
    expect(stored).toEqual(row);
    expect(stored).toMatchObject({ status: "PENDING_SIGNATURE", type: "NONCE_FILL", nonce: 3, gasLimit: "25200", data: "0x" });
    expect(stored.signingHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(stored.signingDeadline!.getTime()).toBe(stored.createdAt.getTime() + deps.config.transfers.signingTimeoutSeconds * 1000);

    const history = await listStatusHistory(t.db, tenant.tenantId, row.id);
    expect(history).toMatchObject([{ fromStatus: null, toStatus: "PENDING_SIGNATURE", actorId: "transfers.release-next" }]);
    const audit = await t.db.select().from(schema.auditEvents).where(eq(schema.auditEvents.targetId, row.id));
    expect(audit).toMatchObject([{ action: "transaction.created", details: { type: "NONCE_FILL", nonce: 3, fills: 3 } }]);
    const events = await t.db.select().from(schema.eventOutbox).where(eq(schema.eventOutbox.aggregateId, row.id));
    expect(events).toMatchObject([
      { type: "transaction.created", sequence: 1, data: { transaction: { type: "NONCE_FILL", status: "PENDING_SIGNATURE" } } },
    ]);
    expect(await deps.jobs.boss.findJobs("transfers.expire", { data: { transactionId: row.id }, queued: true })).toHaveLength(1);
    // Not a new transfer: nothing counted against the tenant's velocity windows or quotas.
    const usage = await t.db.select().from(schema.usageBuckets).where(eq(schema.usageBuckets.tenantId, tenant.tenantId));
    expect(usage).toEqual([]);

    // Signed in the signer like any other: the service's rebuild verifies the wallet's signature.
    const signed = await submitSignature(deps, {
      tenantId: tenant.tenantId,
      transactionId: row.id,
      signature: signTransferFixture(stored.signingHash!, wallet.secretKey),
      actor: systemActor("test-signer"),
    });
    expect(signed).toMatchObject({ status: "SIGNED", type: "NONCE_FILL", nonce: 3 });
  });
});
