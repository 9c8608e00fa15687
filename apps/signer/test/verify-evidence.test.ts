import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq, schema } from "@qc/db";
import { describe, expect, it } from "vitest";
// The real stack as apps/web's own tests start it (web server over HTTPS, the daemon's transfer
// jobs, the devnet), reached by path as service-harness.ts reaches the server.
import { addApprover, addGroup, approve, requireApprovals, useApprovalStack } from "../../web/test/approvals-helpers";
import { deployTestToken, newSignerKey } from "../../web/test/custody-helpers";
import { signPending, waitForRecord } from "../../web/test/transfers-back-helpers";
import { nativeTransfer, type FundedSource } from "../../web/test/transfers-front-helpers";
import { verifyEvidence, type Evidence } from "../src/lib/evidence/verify-evidence";
import { runSigner } from "./run-signer";
import { tempDir } from "./signer-home";

type Json = Record<string, any>;

/** The hex string with one digit in its middle changed: the same length, another value. */
const flip = (hex: string) => {
  const i = Math.floor(hex.length / 2);
  return `${hex.slice(0, i)}${hex[i] === "0" ? "1" : "0"}${hex.slice(i + 1)}`;
};
const failedChecks = (evidence: unknown) =>
  verifyEvidence(evidence)
    .filter((check) => !check.ok)
    .map((check) => check.name);

/**
 * `signer verify-evidence` (CONTRACT §19) on the evidence of transfers the real stack approved,
 * signed, broadcast and mined: every check holds for the evidence as served, and each altered
 * field (of the intent, an approval, the signing request, the signature, the signer key and its
 * proof, the receipt) fails the check that covers it, offline.
 */
describe("signer verify-evidence against the real stack", () => {
  const { t, devnet, server, funded } = useApprovalStack();
  const home = tempDir("qc-evidence-");

  const completed = async (s: FundedSource) => {
    const created = await s.api.createTransfer(nativeTransfer(s, 10n ** 18n, { destinationAddress: newSignerKey().address }));
    expect(created.status, created.text).toBe(201);
    return created.json().id as string;
  };
  const signAndMine = async (s: FundedSource, id: string) => {
    await waitForRecord(s.api, id, ["PENDING_SIGNATURE"]);
    await signPending(s.api, id, s.key.secretKey);
    expect(await waitForRecord(s.api, id, ["COMPLETED", "FAILED"])).toMatchObject({ status: "COMPLETED" });
  };
  const evidenceOf = async (s: FundedSource, id: string): Promise<Json> => {
    const res = await s.api.get(`/v1/transactions/${id}/evidence`);
    expect(res.status, res.text).toBe(200);
    return res.json();
  };
  const verifyFile = (evidence: unknown, name = "evidence.json") => {
    const file = join(home, name);
    writeFileSync(file, JSON.stringify(evidence));
    return runSigner(["verify-evidence", file], { home });
  };

  it("a transfer with two approvals verifies; every altered field fails its check", async () => {
    const s = await funded();
    const [first, second] = await Promise.all([addApprover(server, t.db, s.tenant), addApprover(server, t.db, s.tenant)]);
    const groupId = await addGroup(s.api, "treasury", [first!, second!]);
    await requireApprovals(s.api, [{ groupId, quorum: 2 }]);
    const id = await completed(s);
    await waitForRecord(s.api, id, ["AWAITING_APPROVAL"]);
    for (const approver of [first!, second!]) {
      const res = await approve(approver, id);
      expect(res.status, res.text).toBe(200);
    }
    await signAndMine(s, id);
    const evidence = await evidenceOf(s, id);
    expect(evidence.approvals.map((a: Json) => a.userId).sort()).toEqual([first!.userId, second!.userId].sort());

    const run = await verifyFile(evidence);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const names = ["format", "policy", "screening", "approval 1", "approval 2", "quorum", "signing request", "signature"];
    for (const name of [...names, "signer key", "ownership proof", "transaction hash", "receipt"])
      expect(run.stdout).toContain(`ok      ${name}`);
    expect(run.stdout).toContain("Evidence verified: every hash and signature holds.");

    const [a1, a2] = evidence.approvals as Json[];
    const approval1 = `approval 1 (member ${a1!.userId})`;
    const approval2 = `approval 2 (member ${a2!.userId})`;
    const tamperings: [string, (e: Json) => void, string][] = [
      ["transaction.amount", (e) => (e.transaction.amount = (BigInt(e.transaction.amount) + 1n).toString()), approval1],
      ["transaction.destinationAddress", (e) => (e.transaction.destinationAddress = newSignerKey().address), approval1],
      ["transaction.tenantId", (e) => (e.transaction.tenantId = a1!.keyId), approval1],
      ["transaction.nonce", (e) => (e.transaction.nonce += 1), "signing request"],
      [
        "transaction.fee.maxFeePerGas",
        (e) => (e.transaction.fee.maxFeePerGas = (BigInt(e.transaction.fee.maxFeePerGas) * 2n).toString()),
        "signing request",
      ],
      ["transaction.chainTxHash", (e) => (e.transaction.chainTxHash = flip(e.transaction.chainTxHash)), "transaction hash"],
      ["transaction.blockNumber", (e) => (e.transaction.blockNumber += 1), "receipt"],
      ["transaction.approvals.required quorum", (e) => (e.transaction.approvals.required[0].quorum = 3), "quorum"],
      ["policy", (e) => (e.policy = { decision: "ALLOW", ruleId: null }), "policy"],
      ["screening", (e) => (e.screening.decision = "FLAGGED"), "screening"],
      ["approvals[0].signature", (e) => (e.approvals[0].signature = flip(e.approvals[0].signature)), approval1],
      ["approvals[1].approvalHash", (e) => (e.approvals[1].approvalHash = flip(e.approvals[1].approvalHash)), approval2],
      ["approvals[0].publicKey", (e) => (e.approvals[0].publicKey = e.approvals[1].publicKey), approval1],
      ["approvals[0].keyId", (e) => (e.approvals[0].keyId = e.approvals[1].keyId), approval1],
      ["approvals[1] removed", (e) => e.approvals.pop(), "quorum"],
      ["approvals[1] a copy of approvals[0]", (e) => (e.approvals[1] = { ...e.approvals[0] }), "quorum"],
      [
        "signingRequest.unsignedTransaction",
        (e) => (e.signingRequest.unsignedTransaction = flip(e.signingRequest.unsignedTransaction)),
        "signing request",
      ],
      ["signingRequest.signingHash", (e) => (e.signingRequest.signingHash = flip(e.signingRequest.signingHash)), "signing request"],
      ["signingRequest.context", (e) => (e.signingRequest.context = "QUANTUM-APPROVAL-v1"), "signing request"],
      ["signature", (e) => (e.signature = flip(e.signature)), "signature"],
      ["signerKey.publicKey", (e) => (e.signerKey.publicKey = newSignerKey().publicKey), "signature"],
      ["signerKey.ownershipProof", (e) => (e.signerKey.ownershipProof = flip(e.signerKey.ownershipProof)), "ownership proof"],
      ["signerKey.ownershipProof null", (e) => (e.signerKey.ownershipProof = null), "ownership proof"],
      ["receipt.transactionHash", (e) => (e.receipt.transactionHash = flip(e.receipt.transactionHash)), "receipt"],
      ["receipt.blockNumber", (e) => (e.receipt.blockNumber += 1), "receipt"],
      ["receipt.status", (e) => (e.receipt.status = "reverted"), "receipt"],
      ["receipt.blockHash", (e) => (e.receipt.blockHash = null), "receipt"],
      ["receipt null", (e) => (e.receipt = null), "receipt"],
      ["signature null", (e) => (e.signature = null), "signature"],
    ];
    expect(failedChecks(evidence)).toEqual([]);
    for (const [field, tamper, check] of tamperings) {
      const altered = structuredClone(evidence);
      tamper(altered);
      expect(failedChecks(altered), field).toContain(check);
    }
    // Through the command: exit 1 naming the first failed check, and FAILED beside it.
    const altered = structuredClone(evidence);
    altered.transaction.amount = (BigInt(altered.transaction.amount) * 2n).toString();
    const refused = await verifyFile(altered, "altered.json");
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(`FAILED  ${approval1}: approvalHash`);
    expect(refused.stderr).toMatch(new RegExp(`^signer: evidence does not verify: approval 1 \\(member ${a1!.userId}\\) failed: `));
  }, 240_000);

  it("a transfer without approvals verifies; a key enrolled before proofs were kept fails closed on its ownership proof", async () => {
    const s = await funded();
    const id = await completed(s);
    await signAndMine(s, id);
    const evidence = (await evidenceOf(s, id)) as Evidence;
    expect(evidence.approvals).toEqual([]);
    expect(verifyEvidence(evidence).find((check) => check.name === "quorum")).toEqual({
      name: "quorum",
      ok: true,
      detail: "no approval was required",
    });
    expect((await verifyFile(evidence, "plain.json")).code).toBe(0);

    // As a wallet generated before migration 0019 stands: no proof kept.
    await t.db.update(schema.wallets).set({ ownershipProof: null }).where(eq(schema.wallets.id, s.wallet.id));
    const legacy = await evidenceOf(s, id);
    expect(legacy.signerKey).toEqual({ address: s.wallet.address, publicKey: s.wallet.publicKey, ownershipProof: null });
    const run = await verifyFile(legacy, "legacy.json");
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("ok      signature");
    expect(run.stderr).toBe(
      "signer: evidence does not verify: ownership proof failed: none is kept for this key (enrolled before the service kept proofs): ownership cannot be shown\n",
    );
  }, 240_000);

  it("an ERC-20 transfer verifies with the token's contract from the evidence; another contract fails the signing request", async () => {
    const s = await funded();
    const { token, transfer } = await deployTestToken(devnet());
    const added = await s.api.post("/v1/assets", { networkCode: "QUANTUM_SANDBOX", contractAddress: token });
    expect(added.status, added.text).toBe(201);
    await transfer(s.wallet.address, 5_000_000n);
    const created = await s.api.createTransfer(
      nativeTransfer(s, 1_250_000n, { assetId: added.json().id, destinationAddress: newSignerKey().address }),
    );
    expect(created.status, created.text).toBe(201);
    const id = created.json().id as string;
    await waitForRecord(s.api, id, ["PENDING_SIGNATURE"]);
    await signPending(s.api, id, s.key.secretKey, token);
    expect(await waitForRecord(s.api, id, ["COMPLETED", "FAILED"])).toMatchObject({ status: "COMPLETED" });
    const evidence = await evidenceOf(s, id);
    expect(evidence.asset).toMatchObject({ id: added.json().id, contractAddress: token, decimals: 6 });
    expect(failedChecks(evidence)).toEqual([]);
    const otherToken = structuredClone(evidence);
    otherToken.asset.contractAddress = newSignerKey().address;
    expect(failedChecks(otherToken)).toEqual(["signing request", "signature", "transaction hash", "receipt"]);
  }, 240_000);

  it("refuses a file that is not evidence (exit 1), and a missing argument (exit 2)", async () => {
    const notEvidence = await verifyFile({ transaction: {} }, "not-evidence.json");
    expect(notEvidence.code).toBe(1);
    expect(notEvidence.stdout).toContain("FAILED  format: not transaction evidence:");
    const file = join(home, "garbage.json");
    writeFileSync(file, "{not json");
    expect(await runSigner(["verify-evidence", file], { home })).toMatchObject({ code: 1, stderr: `signer: ${file} is not JSON\n` });
    expect((await runSigner(["verify-evidence"], { home })).code).toBe(2);
  });
});
