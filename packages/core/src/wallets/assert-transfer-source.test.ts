import { addressFromPublicKey, generateKeyPair, signOwnershipProof } from "@qc/chain";
import { useTestDatabase } from "@qc/db/testing";
import { bytesToHex } from "@noble/hashes/utils.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceDeps } from "../deps/service-deps";
import { createTenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { createVault } from "../vaults/create-vault";
import { archiveWallet } from "./archive-wallet";
import { assertTransferSource } from "./assert-transfer-source";
import { createWatchOnlyWallet } from "./create-watch-only-wallet";
import { registerWallet } from "./register-wallet";

describe("assertTransferSource", () => {
  const t = useTestDatabase();
  let deps: ServiceDeps & { close(): Promise<void> };
  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t });
  });
  afterAll(() => deps.close());

  it("accepts an active keyed wallet, refuses watch-only (WATCH_ONLY_SOURCE) and archived (WALLET_ARCHIVED) ones", async () => {
    const tenant = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 7) });
    const actor = { type: "api_key" as const, id: tenant.keyId };
    const vault = await createVault(deps, { tenantId: tenant.tenantId, name: "v", networkCode: "QUANTUM_SANDBOX", actor });
    const { publicKey, secretKey } = generateKeyPair();
    const address = addressFromPublicKey(publicKey);
    const registered = await registerWallet(deps, {
      tenantId: tenant.tenantId,
      vaultId: vault.id,
      address,
      publicKey: `0x${bytesToHex(publicKey)}`,
      signature: signOwnershipProof({ tenantId: tenant.tenantId, address, secretKey }),
      actor,
    });
    expect(() => assertTransferSource(registered)).not.toThrow();

    const watchOnly = await createWatchOnlyWallet(deps, {
      tenantId: tenant.tenantId,
      vaultId: vault.id,
      address: "0x" + "cd".repeat(20),
      actor,
    });
    expect(() => assertTransferSource(watchOnly)).toThrow(expect.objectContaining({ error: "WATCH_ONLY_SOURCE", code: 1201, status: 400 }));

    const archived = await archiveWallet(deps, { tenantId: tenant.tenantId, walletId: registered.id, actor });
    expect(() => assertTransferSource(archived)).toThrow(expect.objectContaining({ error: "WALLET_ARCHIVED", code: 1102, status: 409 }));
    // Watch-only wins over archived: the type is what can never move value.
    const archivedWatchOnly = await archiveWallet(deps, { tenantId: tenant.tenantId, walletId: watchOnly.id, actor });
    expect(() => assertTransferSource(archivedWatchOnly)).toThrow(expect.objectContaining({ error: "WATCH_ONLY_SOURCE" }));
  });
});
