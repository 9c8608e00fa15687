import type { ServiceConfig } from "@qc/core";
import { createTenantFixture, type TenantFixture } from "@qc/core/testing";
import type { Daemon } from "@qc/daemon";
import type { Database } from "@qc/db";
import type { TestDevnet } from "@qc/devnet/testing";
import { expect } from "vitest";
import { call, TEST_PEPPER, type TestResponse, type TestServer } from "./harness";
import { client, createVault, enrollKeys, NATIVE, type Client, type SignerKey } from "./custody-helpers";
import { eventually, startTestDaemon } from "./identity-helpers";

/** The configuration the web server and the daemon of a transfer test share: the devnet as the sandbox RPC. */
export function devnetConfig(devnet: TestDevnet, overrides: Partial<ServiceConfig> = {}): Partial<ServiceConfig> {
  return { rpcUrls: { QUANTUM_SANDBOX: [devnet.url] }, ...overrides };
}

export function startTransfersDaemon(databaseUrl: string, config: Partial<ServiceConfig>): Promise<Daemon> {
  return startTestDaemon(databaseUrl, { config });
}

let keyCounter = 0;
/** A fresh idempotency key. */
export const idempotencyKey = (prefix = "test") => `${prefix}-${Date.now().toString(36)}-${++keyCounter}`;

/** REST calls of one tenant, with POST /v1/transactions and its idempotency header. */
export function transfersClient(server: () => TestServer, authorization: string) {
  const api = client(server, authorization);
  return {
    ...api,
    createTransfer: (body: unknown, key: string | null = idempotencyKey()): Promise<TestResponse> =>
      call(server(), "/v1/transactions", {
        method: "POST",
        headers: { authorization, "content-type": "application/json", ...(key === null ? {} : { "x-idempotency-key": key }) },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    /** POST /v1/transactions/batch `{items}` (CONTRACT §18) with its one idempotency key. */
    createBatch: (items: unknown[], key: string | null = idempotencyKey("batch")): Promise<TestResponse> =>
      call(server(), "/v1/transactions/batch", {
        method: "POST",
        headers: { authorization, "content-type": "application/json", ...(key === null ? {} : { "x-idempotency-key": key }) },
        body: JSON.stringify({ items }),
      }),
  };
}
export type TransfersClient = ReturnType<typeof transfersClient>;

export interface FundedSource {
  tenant: TenantFixture;
  api: TransfersClient;
  vault: { id: string };
  wallet: { id: string; address: `0x${string}`; publicKey: string };
  key: SignerKey;
}

/**
 * A verified tenant with a vault and one signer-managed wallet on the sandbox network, funded
 * on the devnet with `funds` Qwei (no devnet needed for 0: accepting a transfer reads no chain).
 */
export async function fundedSource(
  server: () => TestServer,
  db: Database,
  devnet: TestDevnet | undefined,
  funds: bigint,
  options: { tenant?: TenantFixture } = {},
): Promise<FundedSource> {
  const tenant = options.tenant ?? (await createTenantFixture({ db, pepper: TEST_PEPPER }));
  const api = transfersClient(server, tenant.authorization);
  const vault = await createVault(api);
  const [key] = await enrollKeys(api, tenant.tenantId, 1);
  const generated = await api.post(`/v1/vault/accounts/${vault.id}/wallets/generate`, {});
  expect(generated.status, generated.text).toBe(201);
  const wallet = generated.json();
  if (funds > 0n) await devnet!.fund(wallet.address, funds);
  return { tenant, api, vault, wallet, key: key! };
}

/** A native sandbox transfer body from `source`. */
export function nativeTransfer(source: Pick<FundedSource, "wallet">, amount: bigint | string, overrides: Record<string, unknown> = {}) {
  return {
    networkCode: "QUANTUM_SANDBOX",
    sourceWalletId: source.wallet.id,
    destinationAddress: "0x5b38da6a701c568545dcfcb03fcb875f56beddc4",
    assetId: NATIVE.QUANTUM_SANDBOX,
    amount: amount.toString(),
    ...overrides,
  };
}

/** Waits until the transaction is in one of `statuses` (the daemon's jobs move it) and returns its record. */
export async function waitForStatus(api: Client, transactionId: string, statuses: string[], timeoutMs = 30_000) {
  return eventually(async () => {
    const record = (await api.get(`/v1/transactions/${transactionId}`)).json();
    return statuses.includes(record.status) ? record : undefined;
  }, timeoutMs);
}

/**
 * The keys of every transaction record: CONTRACT §6's fields, §15's `approvals` and `initiatedBy`,
 * §16's `destinationLabel`, §21's `direction`, `destinationWalletId`, `tokenAddress` and `logIndex`,
 * §18's `batchId`.
 */
export const RECORD_KEYS = [
  "amount",
  "approvals",
  "assetId",
  "batchId",
  "blockNumber",
  "broadcastAt",
  "chainId",
  "chainTxHash",
  "completedAt",
  "confirmations",
  "contractAddress",
  "createdAt",
  "destinationAddress",
  "destinationLabel",
  "destinationWalletId",
  "direction",
  "externalId",
  "fee",
  "id",
  "initiatedBy",
  "logIndex",
  "networkCode",
  "nonce",
  "note",
  "policy",
  "replacedByTransactionId",
  "replacesTransactionId",
  "requiredConfirmations",
  "screening",
  "signedAt",
  "signingHash",
  "simulation",
  "sourceAddress",
  "sourceWalletId",
  "status",
  "statusReason",
  "stuck",
  "subStatus",
  "tenantId",
  "tokenAddress",
  "type",
  "updatedAt",
];
