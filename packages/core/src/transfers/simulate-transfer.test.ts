import { createServer } from "node:net";
import { useTestDatabase } from "@qc/db/testing";
import { rpcCall, useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainClients, type ServiceDeps } from "../deps/service-deps";
import { createTenantFixture, type TenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { createSubmittedTransferFixture, createTransferWalletFixture, type TransferWalletFixture } from "../testing/transfer-fixtures";
import { PIPELINE_SIMULATION_TIMEOUT_MS, simulateTransactionRow } from "./simulate-transfer";

const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";

/** The pipeline's simulation never fails a transfer: a node that errs or does not answer gives UNSUPPORTED with the reason. */
describe("simulateTransactionRow when the node fails", () => {
  const t = useTestDatabase();
  const devnet = useDevnet();
  let deps: ServiceDeps & { close(): Promise<void> };
  let tenant: TenantFixture;
  let wallet: TransferWalletFixture;

  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t, config: { rpcUrls: { QUANTUM_SANDBOX: [devnet().url] } } });
    tenant = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 3) });
    wallet = await createTransferWalletFixture(deps, { tenantId: tenant.tenantId });
    await devnet().fund(wallet.address, 10n ** 19n);
  });
  afterAll(() => deps?.close());

  const submitted = () =>
    createSubmittedTransferFixture(deps, { tenantId: tenant.tenantId, wallet, destinationAddress: DESTINATION, amount: 1n });

  it("answers SUCCESS from a working node (the same row and deps as below)", async () => {
    const simulation = await simulateTransactionRow(deps, await submitted());
    expect(simulation).toMatchObject({ status: "SUCCESS", gasUsed: "21000", reason: null });
  });

  it("records UNSUPPORTED with the reason when the node cannot be reached, and does not throw", async () => {
    // A port that was just free and is closed again: the connection is refused.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const unreachable = { ...deps, chain: createChainClients({ QUANTUM_SANDBOX: [`http://127.0.0.1:${port}`] }) };
    const simulation = await simulateTransactionRow(unreachable, await submitted());
    expect(simulation).toMatchObject({ status: "UNSUPPORTED", gasUsed: null, balanceChanges: [], blockNumber: null });
    expect(simulation.reason).toMatch(/^the node could not simulate the transaction: /);
  });

  it(`records UNSUPPORTED after ${PIPELINE_SIMULATION_TIMEOUT_MS} ms when the node does not answer`, async () => {
    const row = await submitted();
    // The devnet holds every request unanswered for 7 s.
    await rpcCall(devnet().url, "devnet_setFault", [{ kind: "stall", ms: 7_000 }]);
    const started = performance.now();
    const simulation = await simulateTransactionRow(deps, row);
    const waited = performance.now() - started;
    expect(simulation).toMatchObject({
      status: "UNSUPPORTED",
      reason: `the node could not simulate the transaction: no answer within ${PIPELINE_SIMULATION_TIMEOUT_MS} ms`,
    });
    expect(waited).toBeGreaterThanOrEqual(PIPELINE_SIMULATION_TIMEOUT_MS - 50);
    expect(waited).toBeLessThan(PIPELINE_SIMULATION_TIMEOUT_MS + 1_500);
    await rpcCall(devnet().url, "devnet_setFault", [{ kind: "none" }]);
  });
});
