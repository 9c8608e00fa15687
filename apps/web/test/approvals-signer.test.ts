import { join } from "node:path";
import { createKeyFixture, createMemberFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { describe, expect, it } from "vitest";
// The reference signer as a customer runs it: its test harness starts the CLI as `./qc signer` does
// (reached by path, as the dashboard's tests reach the signer: no package dependency).
import { writeProfile } from "../../signer/src/lib/profile";
import { leaks, runSigner } from "../../signer/test/run-signer";
import { prepareSignerHome } from "../../signer/test/signer-home";
import { addGroup, requireApprovals, useApprovalStack } from "./approvals-helpers";
import { createVault } from "./custody-helpers";
import { TEST_PEPPER } from "./harness";
import { waitForRecord } from "./transfers-back-helpers";
import { nativeTransfer, transfersClient } from "./transfers-front-helpers";

/**
 * CONTRACT §15 end to end, every party a real process or server: the web server and the daemon
 * (checks, approvals, release, broadcast, confirmations) on the devnet, and one reference signer
 * per person — the initiator's, which holds the source's key, and each approver's, which holds
 * their approval key. Create → held for approval → two approvals in the approvers' signers →
 * released → signed in the initiator's signer after the typed confirmation → COMPLETED.
 */
describe("approval quorums with the reference signer", () => {
  const { t, devnet, server } = useApprovalStack();

  /** A signer home for `member` (its own `signer`-scoped API key), its profile trusting the test server's certificate. */
  async function signerFor(member: TenantFixture) {
    const key = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, member, ["signer"]);
    const url = `https://127.0.0.1:${server().httpsPort}`;
    const prepared = await prepareSignerHome({ url, apiKey: `${key.keyId}:${key.secret}`, tenantId: member.tenantId, keys: 0 });
    writeProfile(join(prepared.home, "profile.json"), { url, tenantId: member.tenantId, ca: server().tls.cert });
    const run = (args: string[], stdin?: string) =>
      runSigner(args, { home: prepared.home, passphrase: prepared.passphrase, ...(stdin === undefined ? {} : { stdin }) });
    return { run, secret: key.secret, passphrase: prepared.passphrase };
  }

  it("create → two approvals in the approvers' signers → signed in the initiator's signer → COMPLETED", async () => {
    // The tenant's OWNER initiates (its full-access key creates the transfer).
    const owner = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const api = transfersClient(server, owner.authorization);

    // The initiator's signer enrolls the pool key the wallet is generated from.
    const initiator = await signerFor(owner);
    const enrolled = await initiator.run(["enroll", "--count", "1"]);
    expect(enrolled.code, enrolled.stderr).toBe(0);
    const vault = await createVault(api);
    const generated = await api.post(`/v1/vault/accounts/${vault.id}/wallets/generate`, {});
    expect(generated.status, generated.text).toBe(201);
    const wallet = generated.json();
    await devnet().fund(wallet.address, 10n * 10n ** 18n);

    // Three approvers, a 2-of-3 group, and a policy holding every transfer for it.
    const approvers = await Promise.all(
      (["APPROVER", "APPROVER", "INITIATOR"] as const).map((role) => createMemberFixture({ db: t.db, pepper: TEST_PEPPER }, owner, role)),
    );
    const groupId = await addGroup(api, "Treasury approvers", approvers);
    await requireApprovals(api, [{ groupId, quorum: 2 }]);

    const created = await api.createTransfer(nativeTransfer({ wallet }, 10n ** 18n));
    expect(created.status, created.text).toBe(201);
    const id: string = created.json().id;
    expect(created.json().initiatedBy).toEqual({ type: "API_KEY", userId: owner.userId, keyId: owner.keyId });
    const held = await waitForRecord(api, id, ["AWAITING_APPROVAL", "BLOCKED", "FAILED"]);
    expect(held.status, held.statusReason).toBe("AWAITING_APPROVAL");
    expect(held.approvals).toEqual({ required: [{ groupId, quorum: 2 }], decisions: [] });
    expect(held.simulation).toMatchObject({ status: "SUCCESS", gasUsed: "21000" });
    const lastFour = `${String(held.destinationAddress).slice(-4)}\n`;
    // CONTRACT §20: the balance changes beside the fields, the destination's gain with the asset's decimals.
    const gained = `  ${held.destinationAddress}  +1 Q (+${10n ** 18n} base units)`;
    const paid = new RegExp(`^  ${wallet.address.toLowerCase()}  -1\\.0*[1-9][0-9]* Q \\(-[0-9]+ base units\\)$`, "m");

    // The initiator's signer has nothing to sign yet; each approver's lists the transfer and approves it.
    const signers = [];
    for (const approver of approvers.slice(0, 2)) {
      const signer = await signerFor(approver);
      signers.push(signer);
      const enrolledApprover = await signer.run(["enroll-approver"]);
      expect(enrolledApprover.code, enrolledApprover.stderr).toBe(0);
      const listed = await signer.run(["approvals", "--json"]);
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout).transactions.map((tx: { id: string }) => tx.id)).toContain(id);
      const approved = await signer.run(["approve", id], lastFour);
      expect(approved.code, approved.stderr).toBe(0);
      expect(approved.stdout).toMatch(/^Simulation {4}SUCCESS at block [0-9]+, gas used 21000 /m);
      expect(approved.stdout).toContain(gained);
      expect(approved.stdout).toMatch(paid);
    }

    // Quorum reached: released through the normal path, then signed after the typed confirmation.
    const pending = await waitForRecord(api, id, ["PENDING_SIGNATURE", "AWAITING_APPROVAL", "BLOCKED", "FAILED"]);
    expect(pending.status, pending.statusReason).toBe("PENDING_SIGNATURE");
    expect(pending.simulation).toMatchObject({ status: "SUCCESS", gasUsed: "21000" });
    const reviewed = await initiator.run(["review", id], lastFour);
    expect(reviewed.code, reviewed.stderr).toBe(0);
    expect(reviewed.stdout).toMatch(/^Simulation {4}SUCCESS at block [0-9]+, gas used 21000 /m);
    expect(reviewed.stdout).toContain(gained);
    expect(reviewed.stdout).toMatch(paid);
    const done = await waitForRecord(api, id, ["COMPLETED", "FAILED"], 60_000);
    expect(done.status, done.statusReason).toBe("COMPLETED");
    expect(done.approvals.decisions).toHaveLength(2);
    expect(done.approvals.decisions.map((d: { userId: string; decision: string }) => [d.userId, d.decision]).sort()).toEqual(
      approvers
        .slice(0, 2)
        .map((a) => [a.userId, "APPROVED"])
        .sort(),
    );

    // An auditor's copy of the evidence verifies offline: every decision's signature over the rebuilt hash.
    const evidence = await api.get(`/v1/transactions/${id}/approvals`);
    expect(evidence.status, evidence.text).toBe(200);
    expect(evidence.json().decisions).toHaveLength(2);

    // No run printed a secret: the API keys, the passphrases.
    expect(leaks([initiator.secret, initiator.passphrase, ...signers.flatMap((s) => [s.secret])])).toEqual([]);
    // A dozen real signer processes, each starting its own TypeScript runtime: minutes on a loaded
    // two-core machine, not the suite's default minute.
  }, 240_000);
});
