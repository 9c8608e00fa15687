import { readFileSync } from "node:fs";
import { join } from "node:path";
import { defaultTransferConfig, rebuildUnsignedTransaction } from "@qc/core";
import { eq, schema } from "@qc/db";
import { describe, expect, it } from "vitest";
// The real stack as apps/web's own tests start it (web server over HTTPS, the daemon's transfer
// jobs, the devnet), reached by path as service-harness.ts reaches the server.
import { useApprovalStack } from "../../web/test/approvals-helpers";
import { NATIVE } from "../../web/test/custody-helpers";
import { waitForRecord } from "../../web/test/transfers-back-helpers";
import { leaks } from "./run-signer";
import { PAYEE, Q, signerOnStack, type GeneratedWallet } from "./signer-on-stack";

const STRANGER = "0x000000000000000000000000000000000000e711";
const SPIKE = 50n * 10n ** 9n;
/** 2 Q a transfer, 3 Q a day, to the payee only; fills, cancellations and speed-ups. */
const RULES = {
  maxAmountPerTransfer: { [NATIVE.QUANTUM_SANDBOX]: (2n * Q).toString() },
  dailyLimit: { [NATIVE.QUANTUM_SANDBOX]: (3n * Q).toString() },
  destinations: [PAYEE],
  types: ["TRANSFER", "NONCE_FILL", "CANCELLATION", "REPLACEMENT"],
};

/**
 * `signer serve` (CONTRACT §17) as a hot wallet runs it, against the real web server, daemon and
 * devnet: it signs an allowed transfer (mined), rejects one above maxAmountPerTransfer with the rule
 * named, keeps the day's total across a restart, stops on SIGTERM; and refuses a tampered
 * REPLACEMENT and a CANCELLATION that is not to the source itself — rows changed in PostgreSQL
 * behind the service, as a compromised database would, with bytes the service itself accepts.
 */
describe("signer serve against the real stack", () => {
  // Address-book entries count at once (ADDRESS_BOOK_ACTIVATION_SECONDS=0), for destinations: "ADDRESS_BOOK".
  const { t, devnet, server } = useApprovalStack({ transfers: { ...defaultTransferConfig(), addressBookActivationSeconds: 0 } });

  const hotWallet = (count: number) => signerOnStack({ t, devnet, server }, count, RULES);

  it("signs, rejects by rule, keeps its daily total across a restart, refuses tampered speed-ups and cancellations", async () => {
    const { api, key, home, passphrase, wallets, writeRules, serve, stop, transfer } = await hotWallet(2);
    const [, tampered] = wallets as [GeneratedWallet, GeneratedWallet];
    /** Changes a transaction's row behind the service, storing the bytes the service rebuilds from the changed row. */
    const changeRow = async (id: string, change: Partial<typeof schema.transactions.$inferInsert>) => {
      const [row] = await t.db.select().from(schema.transactions).where(eq(schema.transactions.id, id));
      const changed = { ...row!, ...change };
      const asset = changed.assetId === null ? null : ({ kind: "NATIVE", contractAddress: null } as const);
      const rebuilt = rebuildUnsignedTransaction(changed, asset);
      await t.db
        .update(schema.transactions)
        .set({ ...change, unsignedTransaction: rebuilt.unsignedTransaction, signingHash: rebuilt.signingHash })
        .where(eq(schema.transactions.id, id));
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

    const second = await stop(running);
    expect(second.lines.map((line) => [line.transactionId, line.decision, line.rule])).toEqual([
      [upToLimit, "SIGNED", undefined],
      [overLimit, "REJECTED", "dailyLimit"],
    ]);
    expect(second.run.stderr).toContain("stopped: every submission started has completed");

    // 3. A transfer of the second wallet signed and sent during a base-fee spike waits in the pool.
    // Its speed-up and its cancellation, made while serve is stopped, are changed in PostgreSQL
    // behind the service (with bytes the service itself rebuilds and hands out): rejected. A true
    // speed-up is then signed and mined, and counted once with its original.
    writeRules({ ...RULES, dailyLimit: { [NATIVE.QUANTUM_SANDBOX]: (100n * Q).toString() } });
    const stuck = await transfer(Q, tampered);
    await waitForRecord(api, stuck, ["PENDING_SIGNATURE"]);
    await devnet().rpc("devnet_setFault", [{ kind: "baseFee", baseFeePerGas: `0x${SPIKE.toString(16)}` }]);
    try {
      running = serve();
      const sent = await waitForRecord(api, stuck, ["BROADCASTING", "CONFIRMING", "COMPLETED", "FAILED", "REJECTED"]);
      expect(sent.status, sent.statusReason).toBe("BROADCASTING");
      await stop(running);

      const speedUp = await api.post(`/v1/transactions/${stuck}/speed-up`, {});
      expect(speedUp.status, speedUp.text).toBe(201);
      await changeRow(speedUp.json().id, { destinationAddress: STRANGER });
      const cancellation = await api.post(`/v1/transactions/${stuck}/cancel`, {});
      expect(cancellation.status, cancellation.text).toBe(201);
      expect(cancellation.json()).toMatchObject({ type: "CANCELLATION", destinationAddress: tampered.address, amount: "0" });
      await changeRow(cancellation.json().id, { destinationAddress: STRANGER });

      running = serve();
      const refusedSpeedUp = await waitForRecord(api, speedUp.json().id, ["REJECTED", "SIGNED", "BROADCASTING", "FAILED"]);
      expect(refusedSpeedUp.status, refusedSpeedUp.statusReason).toBe("REJECTED");
      expect(refusedSpeedUp.statusReason).toContain("destinationAddress differs from the original");
      const refusedCancellation = await waitForRecord(api, cancellation.json().id, ["REJECTED", "SIGNED", "BROADCASTING", "FAILED"]);
      expect(refusedCancellation.status, refusedCancellation.statusReason).toBe("REJECTED");
      expect(refusedCancellation.statusReason).toContain("a CANCELLATION is sent by the source to itself");

      const honest = await api.post(`/v1/transactions/${stuck}/speed-up`, {});
      expect(honest.status, honest.text).toBe(201);
      expect((await waitForRecord(api, honest.json().id, ["COMPLETED", "FAILED", "REJECTED"], 90_000)).status).toBe("COMPLETED");
      expect(await waitForRecord(api, stuck, ["FAILED", "COMPLETED"])).toMatchObject({ status: "FAILED", subStatus: "REPLACED" });
      const third = await stop(running);
      const lines = third.lines.map((line) => [line.transactionId, line.type, line.decision, line.rule]);
      // The two refusals are decided in one poll and submitted side by side (SUBMISSIONS_IN_FLIGHT):
      // each line is written when the service has accepted it, so their order is the service's.
      expect(lines.slice(0, 2)).toHaveLength(2);
      expect(lines.slice(0, 2)).toEqual(
        expect.arrayContaining([
          [speedUp.json().id, "REPLACEMENT", "REJECTED", "verification"],
          [cancellation.json().id, "CANCELLATION", "REJECTED", "verification"],
        ]),
      );
      expect(lines.slice(2)).toEqual([[honest.json().id, "REPLACEMENT", "SIGNED", undefined]]);
      // 1 + 2 Q, then the stuck 1 Q; its speed-up is the same transfer, counted once.
      expect(JSON.parse(readFileSync(join(home, "serve-state.json"), "utf8")).signed).toEqual({
        [NATIVE.QUANTUM_SANDBOX]: (4n * Q).toString(),
      });
    } finally {
      await devnet().rpc("devnet_clearFaults");
    }
    expect(leaks([key.secret, passphrase])).toEqual([]);
  }, 300_000);

  it("destinations ADDRESS_BOOK: signs a transfer to an ACTIVE entry of the tenant's book, rejects one to an address not in it", async () => {
    const { api, writeRules, serve, stop, transfer } = await hotWallet(1);
    const listed = await api.post("/v1/address-book", { networkCode: "QUANTUM_SANDBOX", address: PAYEE, label: "Payee" });
    expect(listed.status, listed.text).toBe(201);
    writeRules({ ...RULES, destinations: "ADDRESS_BOOK" });
    const running = serve();
    const toPayee = await transfer(Q);
    expect((await waitForRecord(api, toPayee, ["COMPLETED", "FAILED", "REJECTED", "EXPIRED"], 90_000)).status).toBe("COMPLETED");
    const toStranger = await transfer(Q, undefined, STRANGER);
    const refused = await waitForRecord(api, toStranger, ["REJECTED", "COMPLETED", "FAILED"], 60_000);
    expect(refused.status, refused.statusReason).toBe("REJECTED");
    expect(refused.statusReason).toContain(`rule destinations: destination ${STRANGER} is not an ACTIVE address-book entry`);
    const { lines } = await stop(running);
    expect(lines.map((line) => [line.transactionId, line.decision, line.rule])).toEqual([
      [toPayee, "SIGNED", undefined],
      [toStranger, "REJECTED", "destinations"],
    ]);
  });
});
