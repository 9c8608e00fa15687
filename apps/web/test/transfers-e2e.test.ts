import type { Daemon } from "@qc/daemon";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSignerKey, Q } from "./custody-helpers";
import { startTestServer, type TestServer } from "./harness";
import { eventually } from "./identity-helpers";
import { minedFrom, signPending, statusChanges, statusPath, waitForRecord, type TransactionJson } from "./transfers-back-helpers";
import { devnetConfig, fundedSource, nativeTransfer, startTransfersDaemon } from "./transfers-front-helpers";

describe("five transfers from one wallet in its nonce window, the second rejected in the signer (real HTTPS, daemon, devnet)", () => {
  const t = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 300 });
  let server: TestServer;
  let daemon: Daemon;

  beforeAll(async () => {
    const config = devnetConfig(devnet());
    server = await startTestServer({ database: t, config });
    daemon = await startTransfersDaemon(t.url, config);
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
  });

  it("releases the five at once, fills the rejected nonce and completes the rest: contiguous nonces on chain, exact balances, no gap", async () => {
    const source = await fundedSource(() => server, t.db, devnet(), 100n * Q);
    const destination = newSignerKey().address;
    const firstNonce = await minedFrom(devnet(), source.wallet.address);
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const res = await source.api.createTransfer(
        nativeTransfer(source, BigInt(i) * Q, { destinationAddress: destination, externalId: `batch-${i}` }),
      );
      expect(res.status, res.text).toBe(201);
      ids.push(res.json().id);
    }
    // The nonce window (NONCE_WINDOW 16): all five are released at once, in creation order, on consecutive nonces.
    const listed = await eventually(async () => {
      const now = (await source.api.get("/v1/signer/transactions?limit=200")).json().transactions as TransactionJson[];
      const ours = now.filter((tx) => ids.includes(tx.id));
      return ours.length === ids.length ? ours : undefined;
    });
    const released = ids.map((id) => listed.find((tx) => tx.id === id)!);
    expect(released.map((tx) => tx.nonce)).toEqual([0, 1, 2, 3, 4].map((i) => firstNonce + i));

    // The signer rejects the second and signs the others: its nonce is left unused below theirs.
    const rejected = await source.api.post(`/v1/signer/transactions/${released[1]!.id}/reject`, { reason: "duplicate payout" });
    expect(rejected.status, rejected.text).toBe(200);
    for (const tx of [released[0]!, ...released.slice(2)]) await signPending(source.api, tx.id, source.key.secretKey);

    // release-next fills it: a NONCE_FILL at exactly that nonce, zero value to the source itself, signed like any other.
    const fill = await eventually(async () => {
      const now = (await source.api.get("/v1/signer/transactions?limit=200")).json().transactions as TransactionJson[];
      return now.find((tx) => tx.type === "NONCE_FILL");
    });
    expect(fill).toMatchObject({
      nonce: firstNonce + 1,
      sourceAddress: source.wallet.address,
      destinationAddress: source.wallet.address,
      assetId: null,
      amount: "0",
      status: "PENDING_SIGNATURE",
    });
    await signPending(source.api, fill.id, source.key.secretKey);

    const ends = ["COMPLETED", "FAILED", "REJECTED", "EXPIRED", "CANCELLED", "BLOCKED"];
    const final = await Promise.all(released.map((r) => waitForRecord(source.api, r.id, ends)));
    expect(final.map((r) => r.status)).toEqual(["COMPLETED", "REJECTED", "COMPLETED", "COMPLETED", "COMPLETED"]);
    expect(final[1]).toMatchObject({ subStatus: "REJECTED_BY_SIGNER", statusReason: "duplicate payout", chainTxHash: null });
    expect(await waitForRecord(source.api, fill.id, ends)).toMatchObject({ status: "COMPLETED", nonce: firstNonce + 1 });

    // No gap: the four transfers and the fill are on chain at contiguous nonces, each its own signed transaction.
    const completed = [...final.filter((r) => r.status === "COMPLETED"), await waitForRecord(source.api, fill.id, ends)];
    const nonces = await Promise.all(
      completed.map(async (r) => (await devnet().publicClient().getTransaction({ hash: r.chainTxHash })).nonce),
    );
    expect(completed.map((r) => r.nonce)).toEqual(nonces);
    expect([...nonces].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4].map((i) => firstNonce + i));
    expect(await minedFrom(devnet(), source.wallet.address)).toBe(firstNonce + 5);
    const sent = completed.reduce((sum, r) => sum + BigInt(r.amount), 0n);
    expect(sent).toBe(15n * Q - BigInt(final[1]!.amount));
    expect(await devnet().publicClient().getBalance({ address: destination })).toBe(sent);

    for (const record of completed) {
      const path = ["SUBMITTED", "PENDING_SIGNATURE", "SIGNED", "BROADCASTING", "CONFIRMING", "COMPLETED"];
      // A fill is created released: its history starts at PENDING_SIGNATURE. The checks run concurrently: a
      // transfer whose checks end before an older one's waits QUEUED for it (release follows creation order).
      const seen = await statusPath(source.api, record.id);
      expect(seen.filter((status, i) => !(status === "QUEUED" && i === 1))).toEqual(record.type === "NONCE_FILL" ? path.slice(1) : path);
      const changes = await statusChanges(t.db, record.id);
      expect(changes.map((c) => c.sequence)).toEqual(changes.map((_, i) => i + 2));
    }
  });
});
