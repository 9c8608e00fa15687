import { getQuantumTransactionStatus, signQuantumTransaction } from "@qc/chain";
import { createFundedAccount, useDevnet } from "@qc/devnet/testing";
import { describe, expect, it } from "vitest";
import { sendSignedTransaction } from "./send-signed-transaction";

const Q = 10n ** 18n;
const GWEI = 10n ** 9n;

// The send of a stored raw transaction, against the devnet: what the node answers, and the one
// check before anything leaves — the stored bytes must hash to the stored hash (fail closed).
describe("sendSignedTransaction", () => {
  const devnet = useDevnet();

  const signed = async (nonce: number) => {
    const account = await createFundedAccount(devnet(), Q);
    return signQuantumTransaction({
      transaction: {
        chainId: 20804,
        nonce,
        maxPriorityFeePerGas: GWEI,
        maxFeePerGas: 3n * GWEI,
        gas: 21_000n,
        to: "0x000000000000000000000000000000000000ca01",
        value: 5n,
        data: "0x",
      },
      secretKey: account.secretKey,
      publicKey: account.publicKey,
    });
  };
  const row = (tx: { serializedTransaction: `0x${string}`; hash: `0x${string}` }, hash = tx.hash) => ({
    networkCode: "QUANTUM_SANDBOX" as const,
    nonce: 0,
    rawTransaction: tx.serializedTransaction,
    chainTxHash: hash,
  });

  it("sends the stored bytes once they hash to the stored hash; the same bytes again count as sent", async () => {
    const client = devnet().publicClient();
    const tx = await signed(0);
    expect(await sendSignedTransaction(client, row(tx))).toEqual({ kind: "sent" });
    expect((await getQuantumTransactionStatus(client, { hash: tx.hash })).status).not.toBe("unknown");
    expect(await sendSignedTransaction(client, row(tx))).toEqual({ kind: "sent" });
  });

  it("fails closed, nothing sent, when the stored bytes do not hash to the stored hash", async () => {
    const client = devnet().publicClient();
    const tx = await signed(0);
    const other = `0x${"ab".repeat(32)}` as const;
    expect(await sendSignedTransaction(client, row(tx, other))).toEqual({
      kind: "final",
      subStatus: "SIGNATURE_MISMATCH",
      reason: "the stored raw transaction does not hash to the stored transaction hash",
    });
    // The node never saw the bytes.
    expect(await getQuantumTransactionStatus(client, { hash: tx.hash })).toEqual({ status: "unknown", confirmations: 0 });
  });
});
