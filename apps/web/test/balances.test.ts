import { createServer } from "node:net";
import { createTenantFixture, type TenantFixture } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, createVault, deployTestToken, enrollKeys, expectError, NATIVE, newSignerKey, Q, type Client } from "./custody-helpers";
import { startTestServer, TEST_PEPPER, type TestServer } from "./harness";

/** A port with nothing listening: an RPC that is down. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("wallet balances read live from the devnet", () => {
  const t = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 50 });
  let server: TestServer;
  let a: TenantFixture;
  let api: Client;
  let vault: { id: string };
  let wallet: { id: string; address: `0x${string}` };

  beforeAll(async () => {
    server = await startTestServer({ database: t, config: { rpcUrls: { QUANTUM_SANDBOX: [devnet().url] } } });
    a = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    api = client(() => server, a.authorization);
    vault = await createVault(api);
    await enrollKeys(api, a.tenantId, 1);
    wallet = (await api.post(`/v1/vault/accounts/${vault.id}/wallets/generate`, {})).json();
  });
  afterAll(() => server?.close());

  it("equals what devnet_fund credited, native asset of the home network by default, at the block returned", async () => {
    const before = (await api.get(`/v1/wallets/${wallet.id}/balance`)).json();
    expect(before).toMatchObject({ walletId: wallet.id, assetId: NATIVE.QUANTUM_SANDBOX, balance: "0" });
    const amount = 12n * Q + 345n;
    await devnet().fund(wallet.address, amount);
    const res = await api.get(`/v1/wallets/${wallet.id}/balance`);
    expect(res.status).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(["assetId", "balance", "blockNumber", "queriedAt", "walletId"]);
    expect(body).toMatchObject({ walletId: wallet.id, assetId: NATIVE.QUANTUM_SANDBOX, balance: amount.toString() });
    expect(Number.isInteger(body.blockNumber)).toBe(true);
    expect(body.blockNumber).toBeGreaterThanOrEqual(before.blockNumber);
    expect(body.queriedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // The balance is the one at that block.
    const atBlock = await devnet()
      .publicClient()
      .getBalance({ address: wallet.address, blockNumber: BigInt(body.blockNumber) });
    expect(body.balance).toBe(atBlock.toString());
    const explicit = await api.get(`/v1/wallets/${wallet.id}/balance?assetId=${NATIVE.QUANTUM_SANDBOX}&networkCode=QUANTUM_SANDBOX`);
    expect(explicit.json().balance).toBe(amount.toString());
  });

  it("reads an ERC-20 balance through balanceOf: what a token transfer moved", async () => {
    const { token, transfer } = await deployTestToken(devnet());
    const asset = (await api.post("/v1/assets", { networkCode: "QUANTUM_SANDBOX", contractAddress: token })).json();
    const zero = await api.get(`/v1/wallets/${wallet.id}/balance?assetId=${asset.id}`);
    expect(zero.json()).toMatchObject({ assetId: asset.id, balance: "0" });
    await transfer(wallet.address, 4_200_000n);
    const moved = await api.get(`/v1/wallets/${wallet.id}/balance?assetId=${asset.id}`);
    expect(moved.status).toBe(200);
    expect(moved.json()).toMatchObject({ walletId: wallet.id, assetId: asset.id, balance: "4200000" });
    expectError(
      await api.get(`/v1/wallets/${wallet.id}/balance?assetId=${asset.id}&networkCode=QUANTUM_MAINNET`),
      400,
      "NETWORK_MISMATCH",
      1106,
    );
  });

  it("reads watch-only and archived wallets", async () => {
    const watched = newSignerKey().address;
    await devnet().fund(watched, 7n);
    const watch = (await api.post(`/v1/vault/accounts/${vault.id}/wallets/watch-only`, { address: watched })).json();
    expect((await api.get(`/v1/wallets/${watch.id}/balance`)).json().balance).toBe("7");
    await api.post(`/v1/wallets/${watch.id}/archive`);
    const archived = await api.get(`/v1/wallets/${watch.id}/balance`);
    expect(archived.status).toBe(200);
    expect(archived.json().balance).toBe("7");
  });

  it("refuses unknown assets and networks the wallet is not placed on", async () => {
    expectError(await api.get(`/v1/wallets/${wallet.id}/balance?assetId=0194f2c4-0000-7000-8000-00000000000a`), 400, "UNKNOWN_ASSET", 1107);
    expectError(await api.get(`/v1/wallets/${wallet.id}/balance?networkCode=QUANTUM_MAINNET`), 400, "NETWORK_MISMATCH", 1106);
    expectError(await api.get(`/v1/wallets/${wallet.id}/balance?assetId=${NATIVE.QUANTUM_MAINNET}`), 400, "NETWORK_MISMATCH", 1106);
    expectError(await api.get(`/v1/wallets/${wallet.id}/balance?networkCode=QUANTUM_TESTNET`), 400, "VALIDATION_FAILED", 1001);
  });

  it("answers 503 UNAVAILABLE naming the network when its RPC is down", async () => {
    const down = await startTestServer({ database: t, config: { rpcUrls: { QUANTUM_SANDBOX: [`http://127.0.0.1:${await deadPort()}`] } } });
    try {
      const res = await client(() => down, a.authorization).get(`/v1/wallets/${wallet.id}/balance`);
      expectError(res, 503, "UNAVAILABLE", 1070);
      expect(res.json().message).toContain("QUANTUM_SANDBOX");
      expect(res.json().details).toEqual({ networkCode: "QUANTUM_SANDBOX" });
      expect(res.headers["retry-after"]).toBe("5");
    } finally {
      await down.close();
    }
    // The node itself failing every call: also 503.
    await devnet().rpc("devnet_setFault", [{ kind: "rpcError" }]);
    try {
      const res = await api.get(`/v1/wallets/${wallet.id}/balance`);
      expectError(res, 503, "UNAVAILABLE", 1070);
      expect(res.json().message).toContain("QUANTUM_SANDBOX");
    } finally {
      await devnet().rpc("devnet_clearFaults");
    }
    expect((await api.get(`/v1/wallets/${wallet.id}/balance`)).status).toBe(200);
  });

  it("answers 404 for another tenant's wallet", async () => {
    const b = await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
    expectError(await client(() => server, b.authorization).get(`/v1/wallets/${wallet.id}/balance`), 404, "NOT_FOUND", 1030);
  });
});
