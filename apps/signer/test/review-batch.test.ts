import { describe, expect, it } from "vitest";
// The real stack as apps/web's own tests start it (web server over HTTPS, the daemon's transfer
// jobs, the devnet), reached by path as service-harness.ts reaches the server.
import { useApprovalStack } from "../../web/test/approvals-helpers";
import { enrollKeys, NATIVE } from "../../web/test/custody-helpers";
import { waitForRecord, type TransactionJson } from "../../web/test/transfers-back-helpers";
import { nativeTransfer } from "../../web/test/transfers-front-helpers";
import { leaks, runSigner } from "./run-signer";
import { PAYEE, Q, signerOnStack, type GeneratedWallet } from "./signer-on-stack";

const STRANGER = "0x000000000000000000000000000000000000e711";
const RULES = {
  maxAmountPerTransfer: { [NATIVE.QUANTUM_SANDBOX]: (2n * Q).toString() },
  dailyLimit: { [NATIVE.QUANTUM_SANDBOX]: (10n * Q).toString() },
  destinations: [PAYEE],
  types: ["TRANSFER", "NONCE_FILL"],
};
const ENDED = ["COMPLETED", "FAILED", "REJECTED", "EXPIRED", "CANCELLED", "BLOCKED"];

/**
 * A batch (CONTRACT §18) in the reference signer, against the real web server, daemon and devnet:
 * `review --batch` shows every item and the totals and signs only after the typed count; `serve`
 * judges batch items by its rules like any transfer.
 */
describe("signer review --batch and serve with a batch, against the real stack", () => {
  const stack = useApprovalStack();

  it("review --batch: a wrong count signs nothing; the right count signs every verified item, an item whose source key it does not hold is refused", async () => {
    const { owner, api, home, passphrase, vault, wallets, key } = await signerOnStack(stack, 1, RULES);
    // A second wallet of the tenant whose key another signer holds (enrolled here, not in this keystore).
    await enrollKeys(api, owner.tenantId, 1);
    const foreign = (await api.post(`/v1/vault/accounts/${vault.id}/wallets/generate`, {})).json() as GeneratedWallet;
    await stack.devnet().fund(foreign.address, 20n * Q);
    const created = await api.createBatch([
      ...[Q, 2n * Q, 3n * Q].map((amount, i) =>
        nativeTransfer({ wallet: wallets[0]! }, amount, { destinationAddress: i === 2 ? STRANGER : PAYEE }),
      ),
      nativeTransfer({ wallet: foreign }, Q),
      nativeTransfer({ wallet: wallets[0]! }, 0n),
    ]);
    expect(created.status, created.text).toBe(201);
    const { batchId, items } = created.json() as { batchId: string; items: { index: number; transaction?: TransactionJson }[] };
    expect(items[4]).toMatchObject({ index: 4, error: { error: "VALIDATION_FAILED" } });
    const ids = items.slice(0, 4).map((item) => item.transaction!.id);
    for (const id of ids) await waitForRecord(api, id, ["PENDING_SIGNATURE"]);

    const review = (typed: string) => runSigner(["review", "--batch", batchId], { home, passphrase, stdin: typed });
    const wrong = await review("4\n");
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("does not match the number of transfers to sign (3); nothing was signed or sent");
    expect(wrong.stdout).toContain(`Batch ${batchId}: 4 transfers`);
    expect(wrong.stdout).toContain(`#1  ${ids[0]}  to ${PAYEE}  1 Q  fee cap`);
    expect(wrong.stdout).toContain(`#3  ${ids[2]}  to ${STRANGER}  3 Q  fee cap`);
    expect(wrong.stdout).toMatch(
      new RegExp(
        `#4  ${ids[3]}  REFUSED, will not be signed: refused to sign: sourceAddress ${foreign.address} is not a key in this keystore`,
      ),
    );
    expect(wrong.stdout).toContain(
      `Total         6 Q (${6n * Q} base units) in 3 transfers, asset ${NATIVE.QUANTUM_SANDBOX} on QUANTUM_SANDBOX`,
    );
    expect(wrong.stdout).toContain("To sign: 3 transfers (1 refused above, not signed)");
    for (const id of ids) expect((await api.get(`/v1/transactions/${id}`)).json().status).toBe("PENDING_SIGNATURE");

    const right = await review("3\n");
    // Exit 1: one item was refused; the three verified ones are signed.
    expect(right.code, right.stderr).toBe(1);
    expect(right.stderr).toContain(`batch ${batchId}: 3 signed, 1 refused, 0 not accepted by the service`);
    for (const id of ids.slice(0, 3)) expect(right.stdout).toContain(`${id}  signed and submitted. Status: SIGNED`);
    const final = await Promise.all(ids.slice(0, 3).map((id) => waitForRecord(api, id, ENDED, 90_000)));
    expect(final.map((tx) => [tx.status, tx.batchId])).toEqual(final.map(() => ["COMPLETED", batchId]));
    expect((await api.get(`/v1/transactions/${ids[3]}`)).json().status).toBe("PENDING_SIGNATURE");

    // Nothing more to sign in the batch: shown with their statuses, refused, nothing sent.
    const again = await review("0\n");
    expect(again.code).toBe(1);
    expect(again.stdout).toContain(`#1  ${ids[0]}  COMPLETED: not waiting for a signature, not signed here`);
    expect(leaks([key.secret, passphrase])).toEqual([]);
  }, 180_000);

  it("serve signs a batch's items that its rules allow and rejects the others, naming the rule, as ordinary transfers", async () => {
    const { api, serve, stop, wallets } = await signerOnStack(stack, 1, RULES);
    const created = await api.createBatch([
      nativeTransfer({ wallet: wallets[0]! }, Q, { destinationAddress: PAYEE }),
      nativeTransfer({ wallet: wallets[0]! }, 5n * Q, { destinationAddress: PAYEE }),
      nativeTransfer({ wallet: wallets[0]! }, Q, { destinationAddress: STRANGER }),
    ]);
    expect(created.status, created.text).toBe(201);
    const ids = (created.json().items as { transaction: TransactionJson }[]).map((item) => item.transaction.id);
    const running = serve();
    const final = await Promise.all(ids.map((id) => waitForRecord(api, id, ENDED, 90_000)));
    const { lines } = await stop(running);
    expect(final.map((tx) => [tx.status, tx.subStatus])).toEqual([
      ["COMPLETED", null],
      ["REJECTED", "REJECTED_BY_SIGNER"],
      ["REJECTED", "REJECTED_BY_SIGNER"],
    ]);
    // The rejected items' nonces are filled (NONCE_FILL, signed by the same rules): only the batch's lines here.
    // serve takes them in the order the service lists them: compared by id.
    const batchLines = lines.filter((line) => ids.includes(line.transactionId as string));
    batchLines.sort((a, b) => ids.indexOf(a.transactionId as string) - ids.indexOf(b.transactionId as string));
    expect(batchLines.map((line) => [line.transactionId, line.decision, line.rule])).toEqual([
      [ids[0], "SIGNED", undefined],
      [ids[1], "REJECTED", "maxAmountPerTransfer"],
      [ids[2], "REJECTED", "destinations"],
    ]);
  }, 180_000);
});
