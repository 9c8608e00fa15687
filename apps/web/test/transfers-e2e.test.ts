import type { Daemon } from "@qc/daemon";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSignerKey, Q } from "./custody-helpers";
import { startTestServer, type TestServer } from "./harness";
import { eventually } from "./identity-helpers";
import { minedFrom, signPending, statusChanges, statusPath, waitForRecord, type TransactionJson } from "./transfers-back-helpers";
import { devnetConfig, fundedSource, nativeTransfer, startTransfersDaemon } from "./transfers-front-helpers";

describe("five transfers from one wallet, the second rejected in the signer (real HTTPS, daemon, devnet)", () => {
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

  it("completes the other four with contiguous nonces on chain, exact balances, no gap and nothing stuck", async () => {
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
    // One in flight per source: one is released (whichever cleared its checks first), the others wait in QUEUED.
    const statuses = async () =>
      Promise.all(ids.map(async (id) => (await source.api.get(`/v1/transactions/${id}`)).json().status as string));
    const settled = await eventually(async () => {
      const now = await statuses();
      return now.filter((s) => s === "PENDING_SIGNATURE").length === 1 && now.filter((s) => s === "QUEUED").length === 4 ? now : undefined;
    });
    expect(settled.sort()).toEqual(["PENDING_SIGNATURE", "QUEUED", "QUEUED", "QUEUED", "QUEUED"]);

    // The signer works through them as each is released; the second one released is rejected.
    const released: TransactionJson[] = [];
    while (released.length < ids.length) {
      const next = await eventually(async () => {
        const listed = (await source.api.get("/v1/signer/transactions?limit=200")).json().transactions as TransactionJson[];
        const fresh = listed.filter((tx) => ids.includes(tx.id) && !released.some((r) => r.id === tx.id));
        expect(fresh.length).toBeLessThanOrEqual(1);
        return fresh[0];
      });
      released.push(next);
      if (released.length === 2) {
        const res = await source.api.post(`/v1/signer/transactions/${next.id}/reject`, { reason: "duplicate payout" });
        expect(res.status, res.text).toBe(200);
      } else {
        await signPending(source.api, next.id, source.key.secretKey);
      }
    }

    const final = await Promise.all(
      released.map((r) => waitForRecord(source.api, r.id, ["COMPLETED", "FAILED", "REJECTED", "EXPIRED", "CANCELLED", "BLOCKED"])),
    );
    expect(final.map((r) => r.status)).toEqual(["COMPLETED", "REJECTED", "COMPLETED", "COMPLETED", "COMPLETED"]);
    expect(final[1]).toMatchObject({ subStatus: "REJECTED_BY_SIGNER", statusReason: "duplicate payout", chainTxHash: null });

    // The rejected one never consumed a nonce: the four on chain are contiguous from the first.
    const completed = final.filter((r) => r.status === "COMPLETED");
    const nonces = await Promise.all(
      completed.map(async (r) => (await devnet().publicClient().getTransaction({ hash: r.chainTxHash })).nonce),
    );
    expect(nonces).toEqual([firstNonce, firstNonce + 1, firstNonce + 2, firstNonce + 3]);
    expect(completed.map((r) => r.nonce)).toEqual(nonces);
    expect(await minedFrom(devnet(), source.wallet.address)).toBe(firstNonce + 4);
    const sent = completed.reduce((sum, r) => sum + BigInt(r.amount), 0n);
    expect(sent).toBe(15n * Q - BigInt(final[1]!.amount));
    expect(await devnet().publicClient().getBalance({ address: destination })).toBe(sent);
    // The rejected transfer's nonce went to the next one released: no gap.
    expect(released[1]!.nonce).toBe(released[2]!.nonce);

    for (const [index, record] of final.entries()) {
      if (record.status !== "COMPLETED") continue;
      const path = ["SUBMITTED", "QUEUED", "PENDING_SIGNATURE", "SIGNED", "BROADCASTING", "CONFIRMING", "COMPLETED"];
      expect(await statusPath(source.api, record.id)).toEqual(index === 0 ? path.filter((s) => s !== "QUEUED") : path);
      const changes = await statusChanges(t.db, record.id);
      expect(changes.map((c) => c.sequence)).toEqual(changes.map((_, i) => i + 2));
    }
  });
});
