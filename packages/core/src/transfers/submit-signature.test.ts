import { generateKeyPair, signQuantumSigningHash } from "@qc/chain";
import { and, eq, schema } from "@qc/db";
import { findTransaction } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { ml_dsa87 } from "@noble/post-quantum/ml-dsa.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemActor, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { createTenantFixture, type TenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import {
  createReleasedTransferFixture,
  createTransferWalletFixture,
  signTransferFixture,
  type TransferWalletFixture,
} from "../testing/transfer-fixtures";
import { listSigningRequests } from "./list-signing-requests";
import { rejectTransaction } from "./reject-transaction";
import { submitSignature } from "./submit-signature";
import { rebuildUnsignedTransaction } from "./unsigned-transaction";

const Q = 10n ** 18n;
const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";
const signer: Actor = { type: "api_key", id: "qc_signerkey" };

describe("signer services: list, submit, reject", () => {
  const t = useTestDatabase();
  const devnet = useDevnet();
  let deps: ServiceDeps & { close(): Promise<void> };
  let tenant: TenantFixture;
  let wallet: TransferWalletFixture;
  let clock = () => new Date();

  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t, config: { rpcUrls: { QUANTUM_SANDBOX: [devnet().url] } }, now: () => clock() });
    tenant = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 7) });
    wallet = await createTransferWalletFixture(deps, { tenantId: tenant.tenantId });
    await devnet().fund(wallet.address, 10n * Q);
  });
  afterAll(() => deps?.close());

  const release = (overrides: { signingDeadline?: Date } = {}) =>
    createReleasedTransferFixture(deps, { tenantId: tenant.tenantId, wallet, destinationAddress: DESTINATION, amount: Q, ...overrides });
  const submit = (transactionId: string, signature: string) =>
    submitSignature(deps, { tenantId: tenant.tenantId, transactionId, signature, actor: signer });
  const statusOf = async (id: string) => (await findTransaction(t.db, tenant.tenantId, id))!;
  const jobsFor = (name: "transfers.broadcast" | "transfers.release-next", data: object) => deps.jobs.boss.findJobs(name, { data });
  const rejectedAudits = (id: string) =>
    t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.targetId, id), eq(schema.auditEvents.action, "transaction.signature_rejected")));

  it("lists the released transfer with the signing request rebuilt from its intent", async () => {
    const row = await release();
    const { transactions } = await listSigningRequests(deps, { tenantId: tenant.tenantId, status: "PENDING_SIGNATURE", limit: 50 });
    const listed = transactions.find((tx) => tx.id === row.id);
    expect(listed).toMatchObject({
      status: "PENDING_SIGNATURE",
      nonce: row.nonce,
      signingHash: row.signingHash,
      signingRequest: {
        unsignedTransaction: row.unsignedTransaction,
        signingHash: row.signingHash,
        descriptor: "0x010000",
        context: "QUANTUM-TX-v1",
      },
    });
    // Another tenant sees none of it.
    const other = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 7) });
    expect((await listSigningRequests(deps, { tenantId: other.tenantId, status: "PENDING_SIGNATURE", limit: 50 })).transactions).toEqual(
      [],
    );
  });

  it("moves a valid signature to SIGNED with the signature and signedAt, and enqueues the broadcast", async () => {
    const row = await release();
    const signature = signTransferFixture(row.signingHash!, wallet.secretKey);
    const record = await submit(row.id, signature.toUpperCase().replace("0X", "0x"));
    expect(record).toMatchObject({ id: row.id, status: "SIGNED", signedAt: expect.any(String) });
    expect((await statusOf(row.id)).signature).toBe(signature);
    expect(await jobsFor("transfers.broadcast", { transactionId: row.id })).toHaveLength(1);
    // A second submission, even the same signature: 409, and no second broadcast.
    await expect(submit(row.id, signature)).rejects.toMatchObject({ error: "INVALID_TRANSACTION_STATE", details: { status: "SIGNED" } });
    expect(await jobsFor("transfers.broadcast", { transactionId: row.id })).toHaveLength(1);
  });

  it("refuses another key, another intent, another context and malformed hex: 400, still PENDING_SIGNATURE, audited", async () => {
    const row = await release();
    const message = Buffer.from(row.signingHash!.slice(2), "hex");
    // What a signer that was shown another amount would sign.
    const tamperedIntent = rebuildUnsignedTransaction({ ...row, amount: (2n * Q).toString() }, { kind: "NATIVE", contractAddress: null });
    const wrong = {
      "another key": signQuantumSigningHash({ signingHash: row.signingHash as `0x${string}`, secretKey: generateKeyPair().secretKey }),
      "a tampered intent": signTransferFixture(tamperedIntent.signingHash, wallet.secretKey),
      "the ownership context": `0x${Buffer.from(ml_dsa87.sign(message, wallet.secretKey, { context: new TextEncoder().encode("QUANTUM-OWNERSHIP-v1") })).toString("hex")}`,
      "no context": `0x${Buffer.from(ml_dsa87.sign(message, wallet.secretKey)).toString("hex")}`,
      "malformed hex": `0x${"zz".repeat(4627)}`,
      "a short signature": "0x1234",
    };
    for (const [name, signature] of Object.entries(wrong)) {
      await expect(submit(row.id, signature), name).rejects.toMatchObject({ error: "INVALID_SIGNATURE", status: 400 });
    }
    const after = await statusOf(row.id);
    expect(after).toMatchObject({ status: "PENDING_SIGNATURE", signature: null, signedAt: null });
    expect(await rejectedAudits(row.id)).toHaveLength(Object.keys(wrong).length);
    expect(await jobsFor("transfers.broadcast", { transactionId: row.id })).toHaveLength(0);
    // The right signature still works afterwards.
    expect((await submit(row.id, signTransferFixture(row.signingHash!, wallet.secretKey))).status).toBe("SIGNED");
  });

  it("fails closed a row changed after release: left out of the list, FAILED/SIGNATURE_MISMATCH, next released", async () => {
    for (const via of ["list", "submit"] as const) {
      const row = await release();
      const signature = signTransferFixture(row.signingHash!, wallet.secretKey);
      await t.db
        .update(schema.transactions)
        .set({ amount: (5n * Q).toString() })
        .where(eq(schema.transactions.id, row.id));
      if (via === "list") {
        const { transactions } = await listSigningRequests(deps, { tenantId: tenant.tenantId, status: "PENDING_SIGNATURE", limit: 200 });
        expect(transactions.map((tx) => tx.id)).not.toContain(row.id);
      } else {
        await expect(submit(row.id, signature)).rejects.toMatchObject({
          error: "INVALID_TRANSACTION_STATE",
          details: { status: "FAILED" },
        });
      }
      expect(await statusOf(row.id), via).toMatchObject({ status: "FAILED", subStatus: "SIGNATURE_MISMATCH", signature: null });
      expect(await jobsFor("transfers.release-next", { sourceWalletId: wallet.walletId })).not.toHaveLength(0);
    }
  });

  it("refuses a signature after the signing deadline and expires the transaction then", async () => {
    const row = await release({ signingDeadline: new Date(Date.now() + 60_000) });
    clock = () => new Date(Date.now() + 61_000);
    try {
      await expect(submit(row.id, signTransferFixture(row.signingHash!, wallet.secretKey))).rejects.toMatchObject({
        error: "INVALID_TRANSACTION_STATE",
        details: { status: "EXPIRED" },
      });
    } finally {
      clock = () => new Date();
    }
    expect(await statusOf(row.id)).toMatchObject({ status: "EXPIRED", subStatus: "SIGNING_TIMEOUT", signature: null });
  });

  it("rejects: REJECTED/REJECTED_BY_SIGNER with the reason, release-next enqueued; then 409; 404 for another tenant", async () => {
    const row = await release();
    const before = (await jobsFor("transfers.release-next", { sourceWalletId: wallet.walletId })).length;
    const record = await rejectTransaction(deps, {
      tenantId: tenant.tenantId,
      transactionId: row.id,
      reason: "unknown payee",
      actor: signer,
    });
    expect(record).toMatchObject({ status: "REJECTED", subStatus: "REJECTED_BY_SIGNER", statusReason: "unknown payee" });
    expect((await jobsFor("transfers.release-next", { sourceWalletId: wallet.walletId })).length).toBe(before + 1);
    await expect(
      rejectTransaction(deps, { tenantId: tenant.tenantId, transactionId: row.id, reason: "again", actor: signer }),
    ).rejects.toMatchObject({ error: "INVALID_TRANSACTION_STATE" });
    await expect(submit(row.id, signTransferFixture(row.signingHash!, wallet.secretKey))).rejects.toMatchObject({
      error: "INVALID_TRANSACTION_STATE",
      details: { status: "REJECTED" },
    });

    const other = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 7) });
    const pending = await release();
    await expect(
      rejectTransaction(deps, { tenantId: other.tenantId, transactionId: pending.id, reason: "x", actor: systemActor("t") }),
    ).rejects.toMatchObject({ error: "NOT_FOUND" });
    await expect(
      submitSignature(deps, { tenantId: other.tenantId, transactionId: pending.id, signature: "0x", actor: signer }),
    ).rejects.toMatchObject({ error: "NOT_FOUND" });
    expect((await statusOf(pending.id)).status).toBe("PENDING_SIGNATURE");
  });
});
