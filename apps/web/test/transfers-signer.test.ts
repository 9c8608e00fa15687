import {
  buildQuantumTransfer,
  generateKeyPair,
  mlDsa87,
  serializeQuantumTransaction,
  signingHash,
  signQuantumSigningHash,
} from "@qc/chain";
import { defaultTransferConfig, rebuildUnsignedTransaction } from "@qc/core";
import {
  createKeyFixture,
  createReleasedTransferFixture,
  createTenantFixture,
  createTransferWalletFixture,
  signTransferFixture,
  type TenantFixture,
  type TransferWalletFixture,
} from "@qc/core/testing";
import type { Daemon } from "@qc/daemon";
import { and, eq, schema } from "@qc/db";
import { findTransaction } from "@qc/db/queries";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, expectError, type Client } from "./custody-helpers";
import { startTestServer, TEST_PEPPER, type TestServer } from "./harness";
import { eventually, startTestDaemon, trpcMutation } from "./identity-helpers";
import { RECORD_KEYS } from "./transfers-front-helpers";

const Q = 10n ** 18n;
const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";

describe("signer routes over HTTPS: list, signature, reject, expiry", () => {
  const t = useTestDatabase();
  const devnet = useDevnet();
  let server: TestServer;
  let tenant: TenantFixture;
  let signer: Client;
  let wallet: TransferWalletFixture;

  beforeAll(async () => {
    server = await startTestServer({ database: t, config: { rpcUrls: { QUANTUM_SANDBOX: [devnet().url] } } });
    tenant = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    signer = client(() => server, (await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, ["signer"])).authorization);
    wallet = await createTransferWalletFixture(server.deps, { tenantId: tenant.tenantId });
    await devnet().fund(wallet.address, 100n * Q);
  });
  afterAll(() => server?.close());

  const release = (overrides: { signingDeadline?: Date; amount?: bigint } = {}) =>
    createReleasedTransferFixture(server.deps, {
      tenantId: tenant.tenantId,
      wallet,
      destinationAddress: DESTINATION,
      amount: Q,
      ...overrides,
    });
  const stored = async (id: string) => (await findTransaction(t.db, tenant.tenantId, id))!;
  const pending = async () => {
    const res = await signer.get("/v1/signer/transactions?status=PENDING_SIGNATURE&limit=200");
    expect(res.status, res.text).toBe(200);
    return res.json<{ transactions: Record<string, any>[]; page: { hasMore: boolean } }>();
  };
  const submit = (id: string, signature: unknown) => signer.post(`/v1/signer/transactions/${id}/signature`, { signature });

  it("lists each transfer awaiting signature with a signing request the signer can rebuild from the displayed fields", async () => {
    const row = await release({ amount: 1234567n });
    const listed = (await pending()).transactions.find((tx) => tx.id === row.id)!;
    expect(Object.keys(listed).sort()).toEqual([...RECORD_KEYS, "signingRequest"].sort());
    expect(listed).toMatchObject({
      status: "PENDING_SIGNATURE",
      amount: "1234567",
      nonce: row.nonce,
      sourceAddress: wallet.address,
      signingHash: row.signingHash,
    });
    // The signer's own rebuild, from the human-readable fields only, with the chain package.
    const unsigned = buildQuantumTransfer({
      chainId: listed.chainId,
      nonce: listed.nonce,
      maxFeePerGas: BigInt(listed.fee.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(listed.fee.maxPriorityFeePerGas),
      gas: BigInt(listed.fee.gasLimit),
      to: listed.destinationAddress,
      amount: BigInt(listed.amount),
    });
    expect(listed.signingRequest).toEqual({
      unsignedTransaction: serializeQuantumTransaction(unsigned),
      signingHash: signingHash(unsigned),
      descriptor: "0x010000",
      context: "QUANTUM-TX-v1",
    });
    expect(listed.signingRequest.unsignedTransaction).toBe(
      rebuildUnsignedTransaction(row, { kind: "NATIVE", contractAddress: null }).unsignedTransaction,
    );

    // read-only keys and other tenants see nothing.
    const reader = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, tenant, ["read"]);
    expectError(await client(() => server, reader.authorization).get("/v1/signer/transactions"), 403, "INSUFFICIENT_SCOPE", 1020);
    const other = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    expect((await client(() => server, other.authorization).get("/v1/signer/transactions")).json().transactions).toEqual([]);
    expectError(await signer.get("/v1/signer/transactions?status=SIGNED"), 400, "VALIDATION_FAILED", 1001);
  });

  it("pages newest first with a cursor", async () => {
    const ids = [(await release()).id, (await release()).id, (await release()).id];
    const first = (await signer.get("/v1/signer/transactions?limit=2")).json();
    expect(first.transactions.map((tx: { id: string }) => tx.id)).toEqual([ids[2], ids[1]]);
    expect(first.page.hasMore).toBe(true);
    const second = (await signer.get(`/v1/signer/transactions?limit=2&cursor=${first.page.nextCursor}`)).json();
    expect(second.transactions[0].id).toBe(ids[0]);
  });

  it(
    "refuses a signature by another key, over a tampered intent, with the wrong context or malformed: 400, still " +
      "PENDING_SIGNATURE, audited",
    async () => {
      const row = await release();
      const message = Buffer.from(row.signingHash!.slice(2), "hex");
      const tampered = rebuildUnsignedTransaction(
        { ...row, destinationAddress: "0x000000000000000000000000000000000000dead" },
        { kind: "NATIVE", contractAddress: null },
      );
      const refused: Record<string, unknown> = {
        "another key": signQuantumSigningHash({ signingHash: row.signingHash as `0x${string}`, secretKey: generateKeyPair().secretKey }),
        "a tampered intent": signTransferFixture(tampered.signingHash, wallet.secretKey),
        "the wrong context": `0x${Buffer.from(mlDsa87.sign(message, wallet.secretKey, { context: new TextEncoder().encode("QUANTUM-OWNERSHIP-v1") })).toString("hex")}`,
        "malformed hex": `0x${"g".repeat(9254)}`,
        "too short": "0xdeadbeef",
      };
      for (const [name, signature] of Object.entries(refused)) {
        const res = await submit(row.id, signature);
        expect(res.status, name).toBe(400);
        expect(Object.keys(res.json()).sort(), name).toEqual(["code", "error", "message", "requestId"]);
        expectError(res, 400, "INVALID_SIGNATURE", 1202);
      }
      expect(await stored(row.id)).toMatchObject({ status: "PENDING_SIGNATURE", signature: null });
      const audits = await t.db
        .select()
        .from(schema.auditEvents)
        .where(and(eq(schema.auditEvents.targetId, row.id), eq(schema.auditEvents.action, "transaction.signature_rejected")));
      expect(audits).toHaveLength(Object.keys(refused).length);
      expect(audits[0]).toMatchObject({ actorType: "api_key", tenantId: tenant.tenantId });
      expect(JSON.stringify(audits)).not.toContain(String(refused["another key"]).slice(2, 200));
      // Not a string at all: a validation error, not a signature check.
      expectError(await submit(row.id, 12345), 400, "VALIDATION_FAILED", 1001);
      expect((await pending()).transactions.map((tx) => tx.id)).toContain(row.id);
    },
  );

  it("accepts the wallet key's signature: 200 with the record in SIGNED; a second submission is 409", async () => {
    const row = await release();
    const signature = signTransferFixture(row.signingHash!, wallet.secretKey);
    const res = await submit(row.id, signature);
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(RECORD_KEYS.sort());
    expect(res.json()).toMatchObject({
      id: row.id,
      status: "SIGNED",
      signedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect((await stored(row.id)).signature).toBe(signature);
    expectError(await submit(row.id, signature), 409, "INVALID_TRANSACTION_STATE", 1203);
    expect((await pending()).transactions.map((tx) => tx.id)).not.toContain(row.id);
  });

  it("the same over tRPC for the dashboard: signer.submitSignature and signer.reject", async () => {
    const row = await release();
    const wrong = await trpcMutation(
      server,
      "signer.submitSignature",
      { transactionId: row.id, signature: "0x00" },
      { authorization: tenant.authorization },
    );
    expect(wrong.json().error.json).toMatchObject({ error: "INVALID_SIGNATURE", code: 1202 });
    const ok = await trpcMutation(
      server,
      "signer.submitSignature",
      { transactionId: row.id, signature: signTransferFixture(row.signingHash!, wallet.secretKey) },
      { authorization: tenant.authorization },
    );
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json().result.data.json).toMatchObject({ id: row.id, status: "SIGNED" });
    const other = await release();
    const rejected = await trpcMutation(
      server,
      "signer.reject",
      { transactionId: other.id, reason: "no" },
      { authorization: tenant.authorization },
    );
    expect(rejected.json().result.data.json).toMatchObject({ id: other.id, status: "REJECTED", subStatus: "REJECTED_BY_SIGNER" });
  });

  it(
    "fails closed a transaction changed in the database after release: not listed, signature refused, " + "FAILED/SIGNATURE_MISMATCH",
    async () => {
      const row = await release();
      const signature = signTransferFixture(row.signingHash!, wallet.secretKey);
      await t.db
        .update(schema.transactions)
        .set({ destinationAddress: "0x000000000000000000000000000000000000dead" })
        .where(eq(schema.transactions.id, row.id));
      expect((await pending()).transactions.map((tx) => tx.id)).not.toContain(row.id);
      expect(await stored(row.id)).toMatchObject({ status: "FAILED", subStatus: "SIGNATURE_MISMATCH" });
      expectError(await submit(row.id, signature), 409, "INVALID_TRANSACTION_STATE", 1203);
    },
  );

  it("rejects with the signer's reason: REJECTED/REJECTED_BY_SIGNER; then 409; unknown or another tenant's is 404", async () => {
    const row = await release();
    expectError(await signer.post(`/v1/signer/transactions/${row.id}/reject`, { reason: "   " }), 400, "VALIDATION_FAILED", 1001);
    const res = await signer.post(`/v1/signer/transactions/${row.id}/reject`, { reason: "destination not on the payee list" });
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toMatchObject({
      id: row.id,
      status: "REJECTED",
      subStatus: "REJECTED_BY_SIGNER",
      statusReason: "destination not on the payee list",
    });
    expectError(await signer.post(`/v1/signer/transactions/${row.id}/reject`, { reason: "again" }), 409, "INVALID_TRANSACTION_STATE", 1203);
    expectError(await submit(row.id, signTransferFixture(row.signingHash!, wallet.secretKey)), 409, "INVALID_TRANSACTION_STATE", 1203);

    const other = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const stranger = client(() => server, other.authorization);
    const fresh = await release();
    expectError(await stranger.post(`/v1/signer/transactions/${fresh.id}/reject`, { reason: "x" }), 404, "NOT_FOUND", 1030);
    expectError(await stranger.post(`/v1/signer/transactions/${fresh.id}/signature`, { signature: "0x00" }), 404, "NOT_FOUND", 1030);
    expectError(
      await signer.post("/v1/signer/transactions/0194f2c4-0000-7000-8000-00000000abcd/reject", { reason: "x" }),
      404,
      "NOT_FOUND",
      1030,
    );
    expect((await stored(fresh.id)).status).toBe("PENDING_SIGNATURE");
  });

  it("refuses signatures from a tenant not verified (value moves only after KYC)", async () => {
    const row = await release();
    await t.db.update(schema.tenants).set({ status: "PENDING_VERIFICATION" }).where(eq(schema.tenants.id, tenant.tenantId));
    try {
      expectError(await submit(row.id, signTransferFixture(row.signingHash!, wallet.secretKey)), 403, "TENANT_NOT_VERIFIED", 1022);
    } finally {
      await t.db.update(schema.tenants).set({ status: "VERIFIED" }).where(eq(schema.tenants.id, tenant.tenantId));
    }
    expect((await stored(row.id)).status).toBe("PENDING_SIGNATURE");
  });

  describe("expiry with a short signing timeout", () => {
    let daemon: Daemon;
    const config = { rpcUrls: { QUANTUM_SANDBOX: [] as string[] }, transfers: { ...defaultTransferConfig(), signingTimeoutSeconds: 2 } };
    beforeAll(async () => {
      config.rpcUrls.QUANTUM_SANDBOX = [devnet().url];
      daemon = await startTestDaemon(t.url, { config });
    });
    afterAll(() => daemon?.stop({ timeoutMs: 5_000 }));

    it("expires an unsigned transfer at its deadline (EXPIRED/SIGNING_TIMEOUT) and then refuses its signature", async () => {
      // Released as a daemon with block watchers releases: no `transfers.expire` job, the daemon's watcher expires it.
      const row = await createReleasedTransferFixture(
        { ...server.deps, config: { ...server.deps.config, ...config, transfers: { ...config.transfers, blockWatchers: true } } },
        {
          tenantId: tenant.tenantId,
          wallet,
          destinationAddress: DESTINATION,
          amount: Q,
        },
      );
      expect(row.signingDeadline!.getTime() - row.createdAt.getTime()).toBe(2_000);
      expect(await server.deps.jobs.boss.findJobs("transfers.expire", { data: { transactionId: row.id } })).toEqual([]);
      const expired = await eventually(async () => {
        const current = await stored(row.id);
        return current.status === "EXPIRED" ? current : undefined;
      }, 30_000);
      expect(expired).toMatchObject({ subStatus: "SIGNING_TIMEOUT", signature: null });
      expect((await pending()).transactions.map((tx) => tx.id)).not.toContain(row.id);
      expectError(await submit(row.id, signTransferFixture(row.signingHash!, wallet.secretKey)), 409, "INVALID_TRANSACTION_STATE", 1203);
    });
  });
});
