import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { rebuildUnsignedTransaction } from "@qc/core";
import { createKeyFixture, createTenantFixture } from "@qc/core/testing";
import { eq, schema } from "@qc/db";
import { describe, expect, it } from "vitest";
// The real stack as apps/web's own tests start it (web server over HTTPS, the daemon's transfer
// jobs, the devnet), reached by path as service-harness.ts reaches the server.
import { useApprovalStack } from "../../web/test/approvals-helpers";
import { createVault, NATIVE } from "../../web/test/custody-helpers";
import { waitForRecord } from "../../web/test/transfers-back-helpers";
import { nativeTransfer, transfersClient } from "../../web/test/transfers-front-helpers";
import { writeProfile } from "../src/lib/profile";
import { jsonLines, leaks, runSigner, spawnSigner, stopSigner } from "./run-signer";
import { prepareSignerHome, tempDir } from "./signer-home";
import { TEST_PEPPER } from "./service-harness";

const Q = 10n ** 18n;
const PAYEE = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";
const STRANGER = "0x000000000000000000000000000000000000e711";
type GeneratedWallet = { id: string; address: `0x${string}`; publicKey: string };

/**
 * `signer serve` (CONTRACT §17) as a hot wallet runs it, against the real web server, daemon and
 * devnet: it signs an allowed transfer (mined), rejects one above maxAmountPerTransfer with the rule
 * named, keeps the day's total across a restart, stops on SIGTERM; and refuses a tampered
 * REPLACEMENT and a CANCELLATION that is not to the source itself — rows changed in PostgreSQL
 * behind the service, as a compromised database would, with bytes the service itself accepts.
 */
describe("signer serve against the real stack", () => {
  const { t, devnet, server } = useApprovalStack();

  it("signs, rejects by rule, keeps its daily total across a restart, refuses tampered speed-ups and cancellations", async () => {
    const owner = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    const api = transfersClient(server, owner.authorization);
    const key = await createKeyFixture({ db: t.db, pepper: TEST_PEPPER }, owner, ["signer"]);
    const url = `https://127.0.0.1:${server().httpsPort}`;
    const { home, passphrase } = await prepareSignerHome({ url, apiKey: `${key.keyId}:${key.secret}`, tenantId: owner.tenantId, keys: 0 });
    writeProfile(join(home, "profile.json"), { url, tenantId: owner.tenantId, ca: server().tls.cert });
    const enrolled = await runSigner(["enroll", "--count", "2"], { home, passphrase });
    expect(enrolled.code, enrolled.stderr).toBe(0);
    const vault = await createVault(api);
    const wallets = [];
    for (let i = 0; i < 2; i += 1) {
      const generated = await api.post(`/v1/vault/accounts/${vault.id}/wallets/generate`, {});
      expect(generated.status, generated.text).toBe(201);
      wallets.push(generated.json() as GeneratedWallet);
      await devnet().fund(generated.json().address, 20n * Q);
    }
    const [wallet, tampered] = wallets as [GeneratedWallet, GeneratedWallet];

    const rules = join(tempDir("qc-serve-stack-"), "rules.json");
    writeFileSync(
      rules,
      JSON.stringify({
        maxAmountPerTransfer: { [NATIVE.QUANTUM_SANDBOX]: (2n * Q).toString() },
        dailyLimit: { [NATIVE.QUANTUM_SANDBOX]: (3n * Q).toString() },
        destinations: [PAYEE],
        types: ["TRANSFER", "NONCE_FILL", "CANCELLATION", "REPLACEMENT"],
      }),
    );
    const serve = () => spawnSigner(["serve", "--rules", rules, "--poll-ms", "100"], { home, passphrase });
    const stop = async (running: ReturnType<typeof serve>) => {
      const run = await stopSigner(running);
      expect(run.code, run.stderr).toBe(0);
      expect(run.signal).toBeNull();
      return { run, lines: jsonLines(run) };
    };
    const transfer = async (amount: bigint, source = wallet) => {
      const created = await api.createTransfer(nativeTransfer({ wallet: source }, amount));
      expect(created.status, created.text).toBe(201);
      return created.json().id as string;
    };

    // 1. One Q is signed and mined; five Q is above maxAmountPerTransfer.
    let running = serve();
    const allowed = await transfer(Q);
    expect((await waitForRecord(api, allowed, ["COMPLETED", "FAILED", "REJECTED", "EXPIRED"], 90_000)).status).toBe("COMPLETED");
    const tooMuch = await transfer(5n * Q);
    const refused = await waitForRecord(api, tooMuch, ["REJECTED", "COMPLETED", "FAILED"], 60_000);
    expect(refused).toMatchObject({ status: "REJECTED", subStatus: "REJECTED_BY_SIGNER" });
    expect(refused.statusReason).toContain("rule maxAmountPerTransfer");
    const first = await stop(running);
    expect(first.lines).toEqual([
      {
        time: expect.any(String),
        transactionId: allowed,
        type: "TRANSFER",
        decision: "SIGNED",
        amount: Q.toString(),
        assetId: NATIVE.QUANTUM_SANDBOX,
        destination: PAYEE,
      },
      expect.objectContaining({ transactionId: tooMuch, decision: "REJECTED", rule: "maxAmountPerTransfer" }),
    ]);

    // 2. A restart keeps the day's 1 Q: 2 Q more reaches the 3 Q limit, then 1 Q more is above it.
    running = serve();
    const upToLimit = await transfer(2n * Q);
    expect((await waitForRecord(api, upToLimit, ["COMPLETED", "FAILED", "REJECTED", "EXPIRED"], 90_000)).status).toBe("COMPLETED");
    const overLimit = await transfer(Q);
    const overRecord = await waitForRecord(api, overLimit, ["REJECTED", "COMPLETED", "FAILED"], 60_000);
    expect(overRecord.status).toBe("REJECTED");
    expect(overRecord.statusReason).toContain("rule dailyLimit");

    // 3. Rows changed behind the service, on the second wallet, each with the bytes the service
    // rebuilds from the changed row (so the service itself hands them out): a speed-up of the
    // completed transfer that pays a stranger, and a cancellation whose record names a stranger.
    const [original] = await t.db.select().from(schema.transactions).where(eq(schema.transactions.id, allowed));
    const pendingRow = (overrides: Partial<typeof schema.transactions.$inferInsert>) => {
      const row = {
        ...original!,
        id: randomUUID(),
        sourceWalletId: tampered.id,
        sourceAddress: tampered.address,
        status: "PENDING_SIGNATURE" as const,
        subStatus: null,
        statusReason: null,
        externalId: null,
        signature: null,
        rawTransaction: null,
        chainTxHash: null,
        blockNumber: null,
        blockHash: null,
        confirmations: 0,
        sendAttempts: 0,
        signedAt: null,
        broadcastAt: null,
        completedAt: null,
        createdAt: new Date(),
        updatedAt: new Date(),
        signingDeadline: new Date(Date.now() + 3_600_000),
        ...overrides,
      };
      const rebuilt = rebuildUnsignedTransaction(row, { kind: "NATIVE", contractAddress: null });
      return { ...row, unsignedTransaction: rebuilt.unsignedTransaction, signingHash: rebuilt.signingHash };
    };
    const [originalOnTampered] = await t.db
      .insert(schema.transactions)
      .values(pendingRow({ status: "BROADCASTING", nonce: 0 }))
      .returning();
    const raised = (fee: string) => (BigInt(fee) * 2n).toString();
    const speedUp = pendingRow({
      type: "REPLACEMENT",
      replacesTransactionId: originalOnTampered!.id,
      nonce: 0,
      destinationAddress: STRANGER,
      maxFeePerGas: raised(original!.maxFeePerGas!),
      maxPriorityFeePerGas: raised(original!.maxPriorityFeePerGas!),
    });
    const cancellation = pendingRow({
      type: "CANCELLATION",
      replacesTransactionId: originalOnTampered!.id,
      nonce: 0,
      assetId: null,
      amount: "0",
      destinationAddress: STRANGER,
      maxFeePerGas: raised(original!.maxFeePerGas!),
      maxPriorityFeePerGas: raised(original!.maxPriorityFeePerGas!),
    });
    await t.db.insert(schema.transactions).values([speedUp, cancellation]);
    const speedUpRecord = await waitForRecord(api, speedUp.id, ["REJECTED", "SIGNED", "BROADCASTING", "FAILED"], 60_000);
    expect(speedUpRecord.status, speedUpRecord.statusReason).toBe("REJECTED");
    expect(speedUpRecord.statusReason).toContain("destinationAddress differs from the original");
    const cancellationRecord = await waitForRecord(api, cancellation.id, ["REJECTED", "SIGNED", "BROADCASTING", "FAILED"], 60_000);
    expect(cancellationRecord.status, cancellationRecord.statusReason).toBe("REJECTED");
    expect(cancellationRecord.statusReason).toContain("a CANCELLATION is sent by the source to itself");

    const second = await stop(running);
    const byId = Object.fromEntries(second.lines.map((line) => [line.transactionId, line]));
    expect(byId[upToLimit]).toMatchObject({ decision: "SIGNED", amount: (2n * Q).toString() });
    expect(byId[overLimit]).toMatchObject({ decision: "REJECTED", rule: "dailyLimit" });
    expect(byId[speedUp.id]).toMatchObject({ type: "REPLACEMENT", decision: "REJECTED", rule: "verification" });
    expect(byId[cancellation.id]).toMatchObject({ type: "CANCELLATION", decision: "REJECTED", rule: "verification" });
    expect(second.run.stderr).toContain("stopped: every submission started has completed");
    expect(leaks([key.secret, passphrase])).toEqual([]);
  }, 300_000);
});
