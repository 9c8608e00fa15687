import { randomUUID } from "node:crypto";
import { createSessionFixture, createTenantFixture, insertDepositFixture, type TenantFixture } from "@qc/core/testing";
import type { Database } from "@qc/db";
import type { TestDevnet } from "@qc/devnet/testing";
import { expect } from "vitest";
import { createVault, Q, type SignerKey } from "../custody-helpers";
import { TEST_PEPPER, type TestServer } from "../harness";
import { eventually } from "../identity-helpers";
import { fundedSource, nativeTransfer, type TransfersClient } from "../transfers-front-helpers";

/** Ids of one tenant's resources, by the name the OpenAPI document gives the path parameter. */
export interface ResourceIds {
  vaultAccountId: string;
  walletId: string;
  transactionId: string;
  webhookId: string;
  deliveryId: string;
  groupId: string;
  entryId: string;
}

export interface TenantWorld {
  tenant: TenantFixture;
  api: TransfersClient;
  /** A dashboard session of the tenant's admin (`Authorization` value). */
  session: string;
  signerKey: SignerKey;
  ids: ResourceIds;
  /** Other ids of the tenant, in bodies: the mainnet vault of network links, the API key id. */
  mainnetVaultId: string;
  watchOnlyWalletId: string;
  keyId: string;
  /** The `externalId` of its transfer: unique per tenant, so free for every other tenant. */
  externalId: string;
  /** Every id the tenant owns (its own id included): what no other tenant may ever see. */
  allIds(): string[];
}

/**
 * A verified tenant owning one resource of every kind a path can name, made through the real
 * routes: a sandbox and a mainnet vault, a signer-managed wallet (funded on the devnet) and a
 * watch-only one, a transfer, a deposit to the watch-only wallet (stored as the chain follower
 * stores one: CONTRACT §21), a webhook endpoint and one delivery of it, an approver group and an
 * address-book entry.
 * The delivery needs the daemon (the outbox dispatcher makes it) and a server that accepts
 * loopback webhook URLs.
 */
export async function createTenantWorld(server: () => TestServer, db: Database, devnet: TestDevnet): Promise<TenantWorld> {
  const tenant = await createTenantFixture({ db, pepper: TEST_PEPPER });
  const source = await fundedSource(server, db, devnet, 10n * Q, { tenant });
  const { api } = source;
  const mainnet = await createVault(api, { name: "Cold", networkCode: "QUANTUM_MAINNET" });
  const watchOnly = await api.post(`/v1/vault/accounts/${source.vault.id}/wallets/watch-only`, {
    address: `0x${tenant.tenantId.replace(/-/g, "").slice(0, 32)}00000001`,
  });
  expect(watchOnly.status, watchOnly.text).toBe(201);
  const deposit = await insertDepositFixture({ db }, { tenantId: tenant.tenantId, walletId: watchOnly.json<{ id: string }>().id });
  const externalId = `payout-${randomUUID().slice(0, 8)}`;
  const transfer = await api.createTransfer(nativeTransfer(source, 1n, { externalId }));
  expect(transfer.status, transfer.text).toBe(201);
  const webhook = await api.post("/v1/webhooks", { url: "https://127.0.0.1:9/hooks", description: "isolation" });
  expect(webhook.status, webhook.text).toBe(201);
  const webhookId = webhook.json<{ id: string }>().id;
  expect((await api.post(`/v1/webhooks/${webhookId}/test`, {})).status).toBeLessThan(300);
  const deliveryId = await eventually(async () => {
    const res = await api.get(`/v1/webhooks/${webhookId}/deliveries`);
    return res.json<{ deliveries?: { id: string }[] }>().deliveries?.[0]?.id;
  }, 30_000);
  const session = (await createSessionFixture({ db }, tenant)).authorization;
  const group = await api.post("/v1/approver-groups", { name: "Isolation approvers", memberIds: [tenant.userId] });
  expect(group.status, group.text).toBe(201);
  const entry = await api.post("/v1/address-book", {
    networkCode: "QUANTUM_SANDBOX",
    address: `0x${tenant.tenantId.replace(/-/g, "").slice(0, 32)}00000002`,
    label: "Isolation payee",
  });
  expect(entry.status, entry.text).toBe(201);
  const ids: ResourceIds = {
    vaultAccountId: source.vault.id,
    walletId: source.wallet.id,
    transactionId: transfer.json<{ id: string }>().id,
    webhookId,
    deliveryId,
    groupId: group.json<{ id: string }>().id,
    entryId: entry.json<{ id: string }>().id,
  };
  const mainnetVaultId = mainnet.id;
  const watchOnlyWalletId = watchOnly.json<{ id: string }>().id;
  return {
    tenant,
    api,
    session,
    signerKey: source.key,
    ids,
    mainnetVaultId,
    watchOnlyWalletId,
    keyId: tenant.keyId,
    externalId,
    allIds: () => [
      tenant.tenantId,
      tenant.userId,
      tenant.keyId,
      ...Object.values(ids),
      mainnetVaultId,
      watchOnlyWalletId,
      deposit.id,
      deposit.chainTxHash!,
      source.wallet.address.toLowerCase(),
    ],
  };
}
