import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { MLDSA87_DESCRIPTOR, TRANSACTION_SIGNATURE_CONTEXT, verifyOwnershipProof } from "@qc/chain";
import { createKeyFixture, createMemberFixture } from "@qc/core/testing";
import { eq, schema } from "@qc/db";
import { describe, expect, it } from "vitest";
import { addApprover, addGroup, requireApprovals, useApprovalStack } from "./approvals-helpers";
import { client, expectError, newSignerKey, proofFor } from "./custody-helpers";
import { TEST_PEPPER } from "./harness";
import { signPending, waitForRecord } from "./transfers-back-helpers";
import { nativeTransfer, type FundedSource } from "./transfers-front-helpers";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SIGNER = fileURLToPath(new URL("../../signer/src/main.ts", import.meta.url));

/** Runs `./qc signer verify-evidence <file>` as a customer would (node --import tsx, no profile, offline). */
async function verifyEvidenceCli(evidence: unknown): Promise<{ code: number; stdout: string; stderr: string }> {
  const home = mkdtempSync(join(tmpdir(), "qc-evidence-"));
  const file = join(home, "evidence.json");
  writeFileSync(file, JSON.stringify(evidence));
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--import", "tsx", SIGNER, "verify-evidence", file], {
      cwd: ROOT,
      env: { ...process.env, QC_SIGNER_HOME: home },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/**
 * `GET /v1/transactions/{id}/evidence` (CONTRACT §19) through HTTPS on the real stack: what is
 * stored, served as evidence (tenant-scoped, read role), and verified by the reference signer's
 * `verify-evidence` offline. The two-approval case and every tampering: apps/signer/test/verify-evidence.test.ts.
 */
describe("transfers: evidence", () => {
  const { t, devnet, server, funded } = useApprovalStack();

  const create = async (s: FundedSource) => {
    const res = await s.api.createTransfer(nativeTransfer(s, 10n ** 17n, { destinationAddress: newSignerKey().address }));
    expect(res.status, res.text).toBe(201);
    return res.json().id as string;
  };

  it("a mined transfer without approvals: the stored signing request, signature, key with its enrolment proof and receipt; verify-evidence exits 0", async () => {
    const s = await funded();
    const id = await create(s);
    await waitForRecord(s.api, id, ["PENDING_SIGNATURE"]);
    await signPending(s.api, id, s.key.secretKey);
    const record = await waitForRecord(s.api, id, ["COMPLETED", "FAILED"]);
    expect(record.status).toBe("COMPLETED");

    // A member who may only read sees it too.
    const viewer = await createMemberFixture({ db: t.db, pepper: TEST_PEPPER }, s.tenant, "VIEWER");
    const viewerKey = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, viewer, ["read"]);
    const res = await client(server, viewerKey.authorization).get(`/v1/transactions/${id}/evidence`);
    expect(res.status, res.text).toBe(200);
    const evidence = res.json();
    const [row] = await t.db.select().from(schema.transactions).where(eq(schema.transactions.id, id));
    const [wallet] = await t.db.select().from(schema.wallets).where(eq(schema.wallets.id, s.wallet.id));
    const receipt = (await devnet().rpc("eth_getTransactionReceipt", [row!.chainTxHash])) as Record<string, string>;
    expect(evidence).toEqual({
      transaction: (await s.api.get(`/v1/transactions/${id}`)).json(),
      policy: { decision: "ALLOW", ruleId: null },
      screening: record.screening,
      asset: { id: record.assetId, symbol: "Q", decimals: 18, contractAddress: null },
      approvals: [],
      signingRequest: {
        unsignedTransaction: row!.unsignedTransaction,
        signingHash: row!.signingHash,
        descriptor: MLDSA87_DESCRIPTOR,
        context: TRANSACTION_SIGNATURE_CONTEXT,
      },
      signature: row!.signature,
      signerKey: { address: s.wallet.address, publicKey: s.key.publicKey, ownershipProof: wallet!.ownershipProof },
      // As the node says, though read from what the service recorded.
      receipt: {
        transactionHash: receipt.transactionHash,
        blockNumber: Number(receipt.blockNumber),
        blockHash: receipt.blockHash,
        status: "success",
        confirmations: record.confirmations,
      },
    });
    expect(receipt.status).toBe("0x1");
    // The proof kept at enrolment is the holder's proof for this tenant and address.
    expect(
      verifyOwnershipProof({
        tenantId: s.tenant.tenantId,
        address: s.wallet.address,
        publicKey: s.key.publicKey,
        signature: wallet!.ownershipProof!,
      }),
    ).toBe(true);

    const verified = await verifyEvidenceCli(evidence);
    expect(verified.stderr).toBe("");
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain("ok      quorum: no approval was required");
    expect(verified.stdout).toContain("Evidence verified");
  }, 180_000);

  it("a transfer awaiting approval: intent and decisions, nothing signed yet, and verify-evidence fails closed", async () => {
    const s = await funded();
    const approver = await addApprover(server, t.db, s.tenant);
    const groupId = await addGroup(s.api, "treasury", [approver]);
    await requireApprovals(s.api, [{ groupId, quorum: 1 }]);
    const id = await create(s);
    await waitForRecord(s.api, id, ["AWAITING_APPROVAL"]);
    const res = await s.api.get(`/v1/transactions/${id}/evidence`);
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toMatchObject({
      transaction: { id, status: "AWAITING_APPROVAL", approvals: { required: [{ groupId, quorum: 1 }], decisions: [] } },
      policy: { decision: "REQUIRE_APPROVAL", ruleId: "approvals" },
      approvals: [],
      signingRequest: null,
      signature: null,
      receipt: null,
      signerKey: { address: s.wallet.address, publicKey: s.key.publicKey },
    });
    const run = await verifyEvidenceCli(res.json());
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("FAILED  quorum: group");
    expect(run.stderr).toContain(`signer: evidence does not verify: quorum failed`);
  }, 120_000);

  it("a registered wallet keeps the proof given at registration", async () => {
    const s = await funded();
    const key = newSignerKey();
    const signature = proofFor(s.tenant.tenantId, key);
    const registered = await s.api.post(`/v1/vault/accounts/${s.vault.id}/wallets`, {
      address: key.address,
      publicKey: key.publicKey,
      signature,
    });
    expect(registered.status, registered.text).toBe(201);
    const [wallet] = await t.db.select().from(schema.wallets).where(eq(schema.wallets.id, registered.json().id));
    expect(wallet!.ownershipProof).toBe(signature.toLowerCase());
  });

  it("an unknown id and another tenant's transaction are 404", async () => {
    const a = await funded();
    const b = await funded();
    const id = await create(a);
    expectError(await b.api.get(`/v1/transactions/${id}/evidence`), 404, "NOT_FOUND", 1030);
    expectError(await a.api.get(`/v1/transactions/0194f2c5-0000-7000-8000-000000000000/evidence`), 404, "NOT_FOUND", 1030);
    expect((await a.api.get(`/v1/transactions/${id}/evidence`)).status).toBe(200);
  });
});
