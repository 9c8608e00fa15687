import { describe, expect, it } from "vitest";
import { useCountedChain } from "../testing/counting-rpc-proxy";
import { createSubmittedTransferFixture, createTransferWalletFixture } from "../testing/transfer-fixtures";
import { runTransferChecks } from "./run-transfer-checks";

const Q = 10n ** 18n;
const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";

/**
 * How many HTTP requests a transfer's way to PENDING_SIGNATURE costs the node (docs/performance/
 * nonce-window.md): the reads each step starts at once leave as one JSON-RPC batch. Real devnet
 * behind a counting HTTP hop, real PostgreSQL.
 */
describe("a transfer's chain reads", () => {
  const { devnet, state } = useCountedChain(11);

  it("checks and releases a transfer in a handful of HTTP requests: each step's reads leave together", async () => {
    const { deps, tenant, proxy } = state;
    const wallet = await createTransferWalletFixture(deps, { tenantId: tenant.tenantId });
    await devnet().fund(wallet.address, 10n * Q);
    const row = await createSubmittedTransferFixture(deps, {
      tenantId: tenant.tenantId,
      wallet,
      destinationAddress: DESTINATION,
      amount: Q,
    });
    proxy.requests.length = 0;
    expect(await runTransferChecks(deps, { tenantId: tenant.tenantId, transactionId: row.id })).toMatchObject({
      status: "RELEASE",
      release: { status: "PENDING_SIGNATURE" },
    });
    // The check: its nonce counts (latest, pending), its balance (at the latest block: one call),
    // the block its fee caps derive from and the gas estimate in one request; viem's priority fee,
    // asked after that block, in a second; the release takes that answer and asks nothing of its
    // own; its simulation, a third. (Before, the balance was read at a block number asked for
    // first, and the release asked its own fee caps, gas and nonces: 11 calls in 5 requests.)
    expect(proxy.requests).toEqual([5, 1, 1]);

    // The next transfer's check, within the second: the network's fee caps are the process's
    // (`feeRoundOf`), so no block and priority fee of its own: its reads in one request, its
    // simulation in another.
    const next = await createSubmittedTransferFixture(deps, {
      tenantId: tenant.tenantId,
      wallet,
      destinationAddress: DESTINATION,
      amount: Q,
    });
    proxy.requests.length = 0;
    expect(await runTransferChecks(deps, { tenantId: tenant.tenantId, transactionId: next.id })).toMatchObject({
      status: "RELEASE",
      release: { status: "PENDING_SIGNATURE", transaction: { nonce: 1 } },
    });
    expect(proxy.requests).toEqual([4, 1]);
  });
});
