import { randomUUID } from "node:crypto";
import { generateKeyPair, getQuantumTransactionHash, signQuantumSigningHash } from "@qc/chain";
import { and, asc, eq, inArray, schema } from "@qc/db";
import { findTransaction } from "@qc/db/queries";
import { describe, expect, it } from "vitest";
import { useCountedChain } from "../testing/counting-rpc-proxy";
import { createSignedTransferFixture, createTransferWalletFixture } from "../testing/transfer-fixtures";
import { broadcastTransaction, broadcastTransactions } from "./broadcast-transaction";

const Q = 10n ** 18n;
const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";

/**
 * A fetch of broadcast jobs run together (`broadcastTransactions`): each transaction decided as
 * alone, the ready ones moved in one database transaction and sent in one JSON-RPC batch. Real
 * devnet behind a counting HTTP hop, real PostgreSQL and pg-boss.
 */
describe("broadcastTransactions", () => {
  const { t, devnet, state } = useCountedChain(12);
  const deps = () => state.deps;

  const fundedWallet = async () => {
    const wallet = await createTransferWalletFixture(deps(), { tenantId: state.tenant.tenantId });
    await devnet().fund(wallet.address, 10n * Q);
    return wallet;
  };
  const signed = (wallet: Awaited<ReturnType<typeof fundedWallet>>) =>
    createSignedTransferFixture(deps(), { tenantId: state.tenant.tenantId, wallet, destinationAddress: DESTINATION, amount: Q });
  const reread = async (row: { id: string }) => (await findTransaction(t.db, state.tenant.tenantId, row.id))!;
  const chainNonce = (address: `0x${string}`) => devnet().publicClient().getTransactionCount({ address, blockTag: "pending" });

  it(
    "moves the ready ones in one database transaction with their trail and events, sends them in one request in nonce " +
      "order, and gives each input its own outcome",
    async () => {
      const a = await fundedWallet();
      const b = await fundedWallet();
      const [a0, a1, a2] = [await signed(a), await signed(a), await signed(a)];
      const b0 = await signed(b);
      // Already BROADCASTING (a retried job): re-sent, counted again.
      const sentBefore = await signed(b);
      expect(await broadcastTransaction(deps(), { tenantId: state.tenant.tenantId, transactionId: sentBefore.id })).toEqual({
        status: "BROADCASTING",
        send: "sent",
      });
      // A signature swapped in the database: fails closed alone, nothing sent.
      const forged = await signed(await fundedWallet());
      await t.db
        .update(schema.transactions)
        .set({
          signature: signQuantumSigningHash({ signingHash: forged.signingHash as `0x${string}`, secretKey: generateKeyPair().secretKey }),
        })
        .where(eq(schema.transactions.id, forged.id));
      const missing = { id: randomUUID() };
      // Their checks' decision, as the checks leave it (fresh); a1's left unset, so it is taken again
      // at the broadcast (`recheckTransfer`) and a1 moves alone, with the decision's fields.
      await t.db
        .update(schema.transactions)
        .set({ checkedAt: new Date() })
        .where(inArray(schema.transactions.id, [a0.id, a2.id, b0.id]));

      const order = [a2, forged, a0, b0, missing, a1, sentBefore];
      const requestsBefore = state.proxy.requests.length;
      const results = await broadcastTransactions(
        deps(),
        order.map((row) => ({ tenantId: state.tenant.tenantId, transactionId: row.id })),
      );

      const sent = { status: "fulfilled", value: { status: "BROADCASTING", send: "sent" } };
      expect(results).toEqual([
        sent,
        { status: "fulfilled", value: { status: "FAILED" } },
        sent,
        sent,
        { status: "rejected", reason: expect.objectContaining({ error: "NOT_FOUND" }) },
        sent,
        sent,
      ]);
      // Five sends (four moved now, one re-sent), one HTTP request: nothing else asked the node.
      expect(state.proxy.requests.slice(requestsBefore)).toEqual([5]);
      const together = [a0, a1, a2, b0];
      for (const row of together) {
        const after = await reread(row);
        expect(after).toMatchObject({ status: "BROADCASTING", sendAttempts: 1, broadcastAt: expect.any(Date) });
        expect(after.chainTxHash).toBe(getQuantumTransactionHash(after.rawTransaction as `0x${string}`));
        expect(await devnet().rpc("eth_getTransactionByHash", [after.chainTxHash])).toMatchObject({ hash: after.chainTxHash });
      }
      expect(await chainNonce(a.address)).toBe(a0.nonce! + 3);
      expect(await reread(sentBefore)).toMatchObject({ status: "BROADCASTING", sendAttempts: 2 });
      expect(await reread(forged)).toMatchObject({ status: "FAILED", subStatus: "SIGNATURE_MISMATCH", rawTransaction: null });

      expect((await reread(a1)).checkedAt).not.toBeNull();
      // The trail: one history and audit row each; a0, a2 and b0's written in one database
      // transaction (one now()), a1's in its own.
      const ids = together.map((row) => row.id);
      const history = await t.db
        .select()
        .from(schema.transactionStatusHistory)
        .where(
          and(inArray(schema.transactionStatusHistory.transactionId, ids), eq(schema.transactionStatusHistory.toStatus, "BROADCASTING")),
        );
      expect(history).toHaveLength(4);
      expect(history.every((h) => h.fromStatus === "SIGNED" && h.actorId === "transfers.broadcast")).toBe(true);
      const movedAt = (row: { id: string }) => history.find((h) => h.transactionId === row.id)!.createdAt.getTime();
      expect(new Set([a0, a2, b0].map(movedAt)).size).toBe(1);
      expect(movedAt(a1)).not.toBe(movedAt(a0));
      const audit = await t.db
        .select()
        .from(schema.auditEvents)
        .where(and(inArray(schema.auditEvents.targetId, ids), eq(schema.auditEvents.action, "transaction.broadcasting")));
      expect(audit.map((row) => row.details)).toEqual(ids.map(() => expect.objectContaining({ from: "SIGNED", to: "BROADCASTING" })));
      // The events: each row's next sequence, with the record as moved and its previous status.
      for (const row of together) {
        const events = await t.db
          .select()
          .from(schema.eventOutbox)
          .where(eq(schema.eventOutbox.aggregateId, row.id))
          .orderBy(asc(schema.eventOutbox.sequence));
        expect(events.map((event) => event.sequence)).toEqual(events.map((_, i) => i + 1));
        expect(events.at(-1)!.data).toMatchObject({ previousStatus: "SIGNED", transaction: { id: row.id, status: "BROADCASTING" } });
      }
      // No block watcher in this process: each moved row leaves its watch, as alone.
      for (const row of together)
        expect(await deps().jobs.boss.findJobs("transfers.watch", { data: { transactionId: row.id }, queued: true })).toHaveLength(1);
    },
  );
});
