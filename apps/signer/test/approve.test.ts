import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { approvalHash, verifyApproval, verifyApproverKeyProof } from "@qc/chain";
import { hexToBytes, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approvalSecretKeyOf } from "../src/lib/approvals/approval-key";
import { openKeystore } from "../src/lib/keystore/keystore";
import type { KeyMaterial } from "../src/lib/keystore/signer-key";
import { awaitingApproval, fieldsOf, startApprovalDouble, type ApprovalDouble, type ApprovalTampering } from "./approval-double";
import { jsonLines, leaks, runSigner, spawnSigner, stopSigner } from "./run-signer";
import { NATIVE_SANDBOX, sandboxFields } from "./signer-double";
import { prepareSignerHome } from "./signer-home";

describe("signer approvals against a stand-in service (CONTRACT §15)", () => {
  let double: ApprovalDouble;
  let home: string;
  let passphrase: string;
  let source: KeyMaterial;

  beforeAll(async () => {
    double = await startApprovalDouble();
    const prepared = await prepareSignerHome({ url: double.url, apiKey: double.apiKey, tenantId: double.tenantId, keys: 1 });
    ({ home, passphrase } = prepared);
    source = prepared.keys[0]!;
  });
  afterAll(async () => {
    await double?.close();
    // No run printed an approval key's seed or secret key, the API secret or the passphrase.
    const keystore = await openKeystore(join(home, "keystore.json"), passphrase);
    const secrets = keystore.approvalKeys.flatMap((key) => [hexToBytes(key.seed as Hex), approvalSecretKeyOf(key).slice(32, 64)]);
    expect(secrets.length).toBeGreaterThanOrEqual(4);
    expect(leaks([...secrets, hexToBytes(source.seed), double.apiKey.split(":")[1]!, passphrase])).toEqual([]);
  });

  const run = (args: string[], stdin?: string) => runSigner(args, { home, passphrase, ...(stdin === undefined ? {} : { stdin }) });
  const keystore = () => openKeystore(join(home, "keystore.json"), passphrase);
  const postsFor = (id: string) => double.posts.filter((post) => post.path.includes(id));
  const keyPosts = () => double.posts.filter((post) => post.path === "/v1/members/me/approval-keys");
  /** A transfer awaiting approval, in the double's list, with its approval request as the service makes it (or tampered). */
  const awaiting = (tamper: ApprovalTampering = {}) => {
    const fields = sandboxFields({ id: randomUUID(), sourceAddress: source.address });
    const record = awaitingApproval(fields, double.tenantId, tamper);
    double.transactions.push(record);
    return { id: fields.id, fields, record, lastFour: `${fields.destinationAddress.slice(-4)}\n` };
  };

  it("approve refuses before an approval key is enrolled: a transaction key never signs an approval", async () => {
    const { id, lastFour } = awaiting();
    const result = await run(["approve", id], lastFour);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("signer: this keystore holds no approval key for the tenant: run `signer enroll-approver` first\n");
    expect(postsFor(id)).toEqual([]);
  });

  it("enroll-approver keeps nothing the service refused", async () => {
    double.failKeyEnrollment({ status: 400 });
    const result = await run(["enroll-approver"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("signer: the service refused POST /v1/members/me/approval-keys:");
    expect((await keystore()).approvalKeys).toEqual([]);
  });

  it("enroll-approver keeps a key whose answer was lost as pending, and the next run finds it enrolled without sending it again", async () => {
    double.failKeyEnrollment({ status: 503, applied: true });
    const lost = await run(["enroll-approver"]);
    expect(lost.code).toBe(1);
    expect(lost.stderr).toContain("it is kept as PENDING_ENROLLMENT and `signer enroll-approver` finishes it");
    const [pending] = (await keystore()).approvalKeys;
    expect(pending).toMatchObject({ status: "PENDING_ENROLLMENT", keyId: null, tenantId: double.tenantId, userId: double.userId });

    const sent = keyPosts().length;
    const resumed = await run(["enroll-approver"]);
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    expect(keyPosts()).toHaveLength(sent);
    const [enrolled] = (await keystore()).approvalKeys;
    expect(enrolled).toMatchObject({ status: "ENROLLED", keyId: double.approvalKeys[0]!.keyId, publicKey: pending!.publicKey });
    expect(resumed.stdout).toContain(
      `Enrolled approval key ${enrolled!.keyId} (left pending by an earlier run) for member ${double.userId}`,
    );
  });

  it("enroll-approver posts a proof verifyApproverKeyProof accepts for the API key's member, and stores the keyId beside the key", async () => {
    const result = await run(["enroll-approver"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const post = keyPosts().at(-1)!;
    const { publicKey, proof } = post.body as { publicKey: string; proof: string };
    expect(verifyApproverKeyProof({ tenantId: double.tenantId, userId: double.userId, publicKey, proof })).toBe(true);
    expect(verifyApproverKeyProof({ tenantId: double.tenantId, userId: randomUUID(), publicKey, proof })).toBe(false);
    const stored = (await keystore()).approvalKeys.find((key) => key.publicKey === publicKey)!;
    expect(stored).toMatchObject({ status: "ENROLLED", keyId: double.approvalKeys.at(-1)!.keyId, userId: double.userId });
    expect(result.stdout).toBe(
      `Enrolled approval key ${stored.keyId} for member ${double.userId} of tenant ${double.tenantId}.\nApprove with: signer approve <transactionId>\n`,
    );
    // Listed apart from the transaction keys, without a seed.
    const listed = JSON.parse((await run(["keys", "list", "--json"])).stdout);
    expect(listed.keys).toHaveLength(1);
    expect(listed.approvalKeys.map((key: { keyId: string }) => key.keyId)).toEqual(double.approvalKeys.map((key) => key.keyId));
    expect(JSON.stringify(listed)).not.toContain(stored.seed.slice(2));
  });

  it("approve shows the fields, rebuilds the approval hash, and after the typed confirmation posts a signature verifyApproval accepts", async () => {
    const { id, fields, lastFour } = awaiting();
    const result = await run(["approve", id], lastFour.toUpperCase());
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    // The hash of the transfer as displayed, computed here from the test's own fields.
    const expected = approvalHash({
      tenantId: double.tenantId,
      transactionId: id,
      chainId: 20804,
      sourceAddress: source.address,
      destinationAddress: fields.destinationAddress,
      assetId: fields.asset.id,
      amount: "1500000000000000000",
      type: "TRANSFER",
    });
    for (const line of [
      `Transaction   ${id}`,
      "Type          TRANSFER",
      "Network       QUANTUM_SANDBOX (chain 20804)",
      `Source        ${source.address}`,
      `Destination   ${fields.destinationAddress}`,
      "Asset         Q, the native asset (18 decimals)",
      "Amount        1.5 Q (1500000000000000000 base units)",
      "Initiated by  member 0193a5c0-0000-7000-8000-0000000000e1",
      "Needs         2 approval(s) of group 0193a5c0-0000-7000-8000-0000000000c1 (0 so far)",
      "Verified      the approval hash was rebuilt here from the fields above and matches the service's",
      `Approval hash ${expected}`,
      "Type the last 4 characters of the destination address to approve: ",
    ]) {
      expect(result.stdout).toContain(line);
    }
    // Signed with the newest approval key, never a transaction key.
    const newest = double.approvalKeys.at(-1)!;
    expect(result.stdout).toContain(`Approved with approval key ${newest.keyId}. Status: QUEUED`);
    expect(postsFor(id)).toHaveLength(1);
    const [post] = postsFor(id);
    expect(post!.path).toBe(`/v1/transactions/${id}/approvals`);
    expect(post!.body).toMatchObject({ decision: "APPROVED", keyId: newest.keyId });
    expect(verifyApproval({ approvalHash: expected, signature: post!.body.signature, publicKey: newest.publicKey })).toBe(true);
    expect(verifyApproval({ approvalHash: expected, signature: post!.body.signature, publicKey: source.publicKey })).toBe(false);
  });

  const other = "0x000000000000000000000000000000000000e711";
  const tampered: { name: string; fields: string[]; tamper: ApprovalTampering }[] = [
    { name: "approvalHash", fields: ["approvalRequest.approvalHash"], tamper: { approvalHash: `0x${"ab".repeat(32)}` } },
    { name: "amount in the fields", fields: ["approvalRequest.fields.amount"], tamper: { fields: { amount: "15000000000000000000" } } },
    {
      name: "destination in the fields",
      fields: ["approvalRequest.fields.destinationAddress"],
      tamper: { fields: { destinationAddress: other } },
    },
    {
      name: "transaction id in the fields",
      fields: ["approvalRequest.fields.transactionId"],
      tamper: { fields: { transactionId: randomUUID() } },
    },
    { name: "tenant in the fields", fields: ["approvalRequest.fields.tenantId"], tamper: { fields: { tenantId: randomUUID() } } },
    { name: "chain id in the fields", fields: ["approvalRequest.fields.chainId"], tamper: { fields: { chainId: "20804" } } },
    { name: "type in the fields", fields: ["approvalRequest.fields.type"], tamper: { fields: { type: "CONTRACT_DEPLOY" } } },
    { name: "asset in the fields", fields: ["approvalRequest.fields.assetId"], tamper: { fields: { assetId: randomUUID() } } },
    {
      name: "missing source in the fields",
      fields: ["approvalRequest.fields.sourceAddress"],
      tamper: { fields: { sourceAddress: undefined } },
    },
    {
      name: "amount in fields and hash alike (a request consistent with itself, not with the record)",
      fields: ["approvalRequest.fields.amount", "approvalRequest.approvalHash"],
      tamper: { signedFields: { amount: "15000000000000000000" } },
    },
    {
      name: "destination in fields and hash alike",
      fields: ["approvalRequest.fields.destinationAddress", "approvalRequest.approvalHash"],
      tamper: { signedFields: { destinationAddress: other } },
    },
    { name: "context", fields: ["approvalRequest.context"], tamper: { context: "QUANTUM-TX-v1" } },
  ];

  for (const { name, fields, tamper } of tampered) {
    it.concurrent(`refuses an approval request with another ${name}, naming it, and posts nothing`, async () => {
      const { id, lastFour } = awaiting(tamper);
      const result = await run(["approve", id], lastFour);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^signer: refused to sign: ${fields[0]!.replaceAll(".", "\\.")} `));
      for (const field of fields) expect(result.stderr).toContain(`${field} `);
      expect(result.stderr).toContain("Nothing was signed or sent.");
      expect(result.stderr).not.toContain("    at ");
      expect(result.stdout).not.toContain("Type the last 4 characters");
      expect(postsFor(id)).toEqual([]);
    });
  }

  it("refuses a record of another tenant than the one the signer is logged in to", async () => {
    const { id, record, lastFour } = awaiting();
    record.tenantId = randomUUID();
    (record.approvalRequest as { fields: unknown; approvalHash: string }).fields = fieldsOf(record);
    (record.approvalRequest as { approvalHash: string }).approvalHash = approvalHash(fieldsOf(record));
    const result = await run(["approve", id], lastFour);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `refused to sign: tenantId is ${record.tenantId as string}, but this signer is logged in to tenant ${double.tenantId}`,
    );
    expect(postsFor(id)).toEqual([]);
  });

  it("sends nothing on a wrong confirmation, or when standard input ends without one", async () => {
    const { id, fields } = awaiting();
    const results = await Promise.all(
      ["0000\n", `${fields.destinationAddress.slice(-5, -1)}\n`, ""].map((stdin) => run(["approve", id], stdin)),
    );
    for (const result of results) {
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        "the confirmation does not match the destination address's last 4 characters; nothing was signed or sent",
      );
    }
    expect(postsFor(id)).toEqual([]);
  });

  it("says so when the transaction is not waiting for an approval", async () => {
    const { id, record } = awaiting();
    record.status = "QUEUED";
    const result = await run(["approve", id], "");
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`signer: transaction ${id} is not waiting for your approval (status QUEUED)\n`);
  });

  it.each([
    [
      403,
      "SELF_APPROVAL_FORBIDDEN",
      1401,
      "you started this transaction (you, or an API key of yours): you may reject it but never approve it",
    ],
    [403, "NOT_AN_APPROVER", 1402, "you are not in an approver group this transaction requires; an OWNER or ADMIN manages the groups"],
    [
      409,
      "INVALID_TRANSACTION_STATE",
      1203,
      "it is no longer awaiting approval, or you have decided on it already (`signer approvals` lists what awaits you)",
    ],
  ])("prints the service's %i %s clearly, with what to do", async (status, error, code, hint) => {
    const { id, lastFour } = awaiting();
    double.refuseDecision(id, { status, error, code, message: `refused: ${error}` });
    const result = await run(["approve", id], lastFour);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `signer: the service refused POST /v1/transactions/${id}/approvals: refused: ${error} (${error} ${code}, request double-request); ${hint}\n`,
    );
  });

  it("prints 400 INVALID_SIGNATURE when the service no longer holds the approval key (revoked)", async () => {
    const { id, lastFour } = awaiting();
    const revoked = double.approvalKeys.pop()!;
    try {
      const result = await run(["approve", id], lastFour);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        "(INVALID_SIGNATURE 1202, request double-request); the service does not accept this approval key's signature",
      );
      expect(result.stderr).toContain("enroll a new one with `signer enroll-approver`");
    } finally {
      double.approvalKeys.push(revoked);
    }
  });

  it("reject-approval posts the decision with its reason and prints the resulting status", async () => {
    const { id } = awaiting();
    const result = await run(["reject-approval", id, "--reason", "not ours"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Rejected. Status: REJECTED (REJECTED_BY_APPROVER)\n");
    expect(postsFor(id)).toEqual([{ path: `/v1/transactions/${id}/approvals`, body: { decision: "REJECTED", reason: "not ours" } }]);
    expect((await run(["reject-approval", id])).code).toBe(2);
    expect((await run(["reject-approval", id, "--reason", "  "])).code).toBe(2);
  });

  it("approvals --json prints the transactions exactly as the service returns them; the table shows amounts with the asset's units", async () => {
    const { id, fields } = awaiting();
    const json = await run(["approvals", "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ transactions: double.transactions.filter((t) => t.status === "AWAITING_APPROVAL") });
    const table = await run(["approvals"]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(
      `${id}  2026-11-21T10:00:00.000Z  QUANTUM_SANDBOX  1.5 Q to ${fields.destinationAddress} from ${source.address}`,
    );
    expect(table.stdout).toContain("Approve one with: signer approve <id>");
  });

  it("watch reports the approvals waiting, count and ids, whenever they change", async () => {
    const waiting = () => double.transactions.filter((t) => t.status === "AWAITING_APPROVAL").map((t) => t.id as string);
    const { child, done } = spawnSigner(["watch", "--interval", "1"], { home, passphrase });
    let output = "";
    child.stdout!.on("data", (chunk: string) => (output += chunk));
    const waitFor = async (text: string) => {
      for (let i = 0; i < 200 && !output.includes(text); i += 1) await new Promise((r) => setTimeout(r, 50));
      expect(output).toContain(text);
    };
    await waitFor(`Approvals waiting for you: ${waiting().length} (${waiting().join(", ")})`);
    const { id } = awaiting();
    await waitFor(`Approvals waiting for you: ${waiting().length} (${waiting().join(", ")})`);
    child.kill("SIGINT");
    const result = await done;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`\u0007Approvals waiting for you: ${waiting().length} (`);
    expect(result.stdout.split("Approvals waiting for you:")).toHaveLength(3);
    expect(result.stdout).toContain(id);
  });

  it("serve approves what its rules allow, rejects the rest with the rule named, and leaves its own transfers to people", async () => {
    const Q = 10n ** 18n;
    const rules = join(home, "rules.json");
    writeFileSync(
      rules,
      JSON.stringify({
        maxAmountPerTransfer: { [NATIVE_SANDBOX.id]: (2n * Q).toString() },
        dailyLimit: { [NATIVE_SANDBOX.id]: (10n * Q).toString() },
        destinations: ["0x00000000000000000000000000000000000b0b5e"],
        types: ["TRANSFER"],
      }),
    );
    const allowed = awaiting();
    const tooMuch = sandboxFields({ id: randomUUID(), sourceAddress: source.address, amount: 5n * Q });
    double.transactions.push(awaitingApproval(tooMuch, double.tenantId));
    const tampered = awaiting({ signedFields: { amount: "1" } });
    const own = awaiting();
    double.refuseDecision(own.id, { status: 403, error: "SELF_APPROVAL_FORBIDDEN", code: 1401, message: "the initiator cannot approve" });
    const statusOf = (id: string) => double.transactions.find((t) => t.id === id)!.status;

    // --no-approvals: signing requests only, nothing decided here.
    const signingOnly = spawnSigner(["serve", "--rules", rules, "--poll-ms", "50", "--no-approvals"], { home, passphrase });
    let said = "";
    signingOnly.child.stderr!.on("data", (chunk: string) => (said += chunk));
    for (let i = 0; i < 400 && !said.includes("serving signing requests"); i += 1) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    expect((await stopSigner(signingOnly)).stderr).toContain("serving signing requests (--no-approvals)");
    expect(postsFor(allowed.id)).toEqual([]);

    // With the approval key this keystore holds, serve decides the approvals too.
    const running = spawnSigner(["serve", "--rules", rules, "--poll-ms", "50"], { home, passphrase });
    const settled = () =>
      statusOf(allowed.id) !== "AWAITING_APPROVAL" &&
      statusOf(tooMuch.id) !== "AWAITING_APPROVAL" &&
      statusOf(tampered.id) !== "AWAITING_APPROVAL" &&
      postsFor(own.id).length > 0;
    for (let i = 0; i < 600 && !settled(); i += 1) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    const result = await stopSigner(running);
    expect(result.code, result.stderr).toBe(0);

    // The double verified the approval over its own hash of the stored fields: the transfer moved on.
    expect(statusOf(allowed.id)).toBe("QUEUED");
    expect(statusOf(tooMuch.id)).toBe("REJECTED");
    expect(statusOf(tampered.id)).toBe("REJECTED");
    const lines = Object.fromEntries(jsonLines(result).map((line) => [line.transactionId, line]));
    expect(lines[allowed.id]).toEqual({
      time: expect.any(String),
      transactionId: allowed.id,
      type: "TRANSFER",
      approval: true,
      decision: "APPROVED",
      amount: allowed.fields.amount.toString(),
      assetId: NATIVE_SANDBOX.id,
      destination: allowed.fields.destinationAddress,
    });
    expect(lines[tooMuch.id]).toMatchObject({ approval: true, decision: "REJECTED", rule: "maxAmountPerTransfer" });
    expect(lines[tampered.id]).toMatchObject({ approval: true, decision: "REJECTED", rule: "verification" });
    expect(lines[own.id]).toBeUndefined();
    // Asked once; the service's final answer is not asked again.
    expect(postsFor(own.id)).toHaveLength(1);
    expect(result.stderr).toContain(`leaving the approval of ${own.id} to people`);
    expect(result.stderr).toContain("serving signing requests and the approvals awaiting this member with approval key");
  });
});
