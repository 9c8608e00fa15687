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
    // The check: the balance, the fee caps and the gas estimate; the release: the nonce counts, the
    // fee caps and the gas estimate; then its simulation — eleven calls. viem asks for the priority
    // fee after the block it derives the caps from, so each quote takes two requests.
    const calls = proxy.requests.reduce((sum, n) => sum + n, 0);
    expect(calls).toBeGreaterThanOrEqual(10);
    expect(proxy.requests.length).toBeLessThanOrEqual(5);
  });
});
