import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { request } from "node:https";
import { join } from "node:path";
import { createMemberFixture, createTenantFixture, type TenantFixture } from "@qc/core/testing";
import type { Database } from "@qc/db";
import type { MemberRole } from "@qc/domain";
import { expect } from "vitest";
// The signer's library, as a customer's signer uses it (reached by path, like dashboard.test.ts).
import {
  createKeystore,
  createServiceClient,
  enrollKeys,
  readTransfer,
  signerApi,
  signTransfer,
  verifySigningRequest,
  type UnlockedKeystore,
} from "../../../signer/src/lib";
import type { Stack } from "./stack";

/** A member of a fixture organization with an API key of their own (`keyId:secret`). */
export type Person = TenantFixture & { apiKey: string };

/**
 * An organization made by the fixtures (verified, so transfers are allowed) with one member per
 * role asked for, in that order. Their API keys are made with the stack's own pepper (kept under
 * DATA_DIR in development), so they work against it.
 */
export async function fixtureOrganization<const Roles extends readonly MemberRole[]>(
  db: Database,
  stack: Stack,
  name: string,
  roles: Roles,
): Promise<{ [K in keyof Roles]: Person }> {
  const pepper = Buffer.from(readFileSync(join(stack.env.DATA_DIR!, "secrets/api-key-pepper"), "utf8").trim(), "hex");
  const deps = { db, pepper };
  const tenant = await createTenantFixture(deps, { name });
  const people: Person[] = [];
  for (const role of roles) {
    const member = await createMemberFixture(deps, tenant, role);
    people.push({ ...member, apiKey: `${member.keyId}:${member.secret}` });
  }
  return people as { [K in keyof Roles]: Person };
}

/** One exchange with the API over HTTPS with the person's API key, verified against the stack's certificate. */
export function callApi(
  stack: Stack,
  person: Person,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any }> {
  const url = new URL(path, stack.baseUrl);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        servername: "localhost",
        port: url.port,
        path: url.pathname + url.search,
        method,
        ca: stack.cert,
        headers: { authorization: `Bearer ${person.apiKey}`, ...(payload ? { "content-type": "application/json" } : {}), ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/**
 * A vault named `vaultName` on the sandbox with a wallet generated from the key pool (a key
 * `person`'s signer enrolled), funded with `funds` base units on the devnet; the wallet's id and
 * the network's native asset.
 */
export async function fundedSandboxWallet(
  stack: Stack,
  person: Person,
  vaultName: string,
  funds: bigint,
): Promise<{ walletId: string; nativeAssetId: string }> {
  const vault = await callApi(stack, person, "POST", "/v1/vault/accounts", { name: vaultName, networkCode: "QUANTUM_SANDBOX" });
  expect(vault.status).toBe(201);
  const wallet = await callApi(stack, person, "POST", `/v1/vault/accounts/${vault.json.id}/wallets/generate`, { label: "hot" });
  expect(wallet.status).toBe(201);
  await stack.devnet.fund(wallet.json.address, funds);
  const assets = await callApi(stack, person, "GET", "/v1/assets?networkCode=QUANTUM_SANDBOX");
  const native = (assets.json.assets as { id: string; kind: string }[]).find((asset) => asset.kind === "NATIVE")!;
  return { walletId: wallet.json.id, nativeAssetId: native.id };
}

/** A transfer on the sandbox created with `person`'s API key (and a fresh idempotency key); its id. */
export async function createSandboxTransfer(
  stack: Stack,
  person: Person,
  transfer: { sourceWalletId: string; assetId: string; destinationAddress: string; amount: bigint },
): Promise<string> {
  const created = await callApi(
    stack,
    person,
    "POST",
    "/v1/transactions",
    { networkCode: "QUANTUM_SANDBOX", ...transfer, amount: transfer.amount.toString() },
    { "x-idempotency-key": randomUUID() },
  );
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  return created.json.id as string;
}

/** Lowest scrypt cost the keystore accepts: every unlock takes milliseconds. */
const FAST_KDF = { n: 2 ** 14, r: 8, p: 1 };

/**
 * A signer's keystore in a fresh temporary directory with `poolKeys` keys enrolled in `person`'s
 * key pool (wallets are generated from them), left unlocked to sign with; the caller closes it.
 */
export async function enrolledKeystore(stack: Stack, person: Person, poolKeys = 1): Promise<UnlockedKeystore> {
  const keystore = await createKeystore(join(mkdtempSync(join(tmpdir(), "qc-signer-")), "keystore.json"), "test keystore", {
    kdf: FAST_KDF,
  });
  const api = signerApi(createServiceClient({ url: stack.baseUrl, apiKey: person.apiKey, ca: stack.cert }));
  await enrollKeys({ keystore, api, tenantId: person.tenantId, count: poolKeys });
  return keystore;
}

/**
 * A signer's keystore at `path` holding `person`'s API key, as `signer init` and `login` leave it,
 * with `poolKeys` keys enrolled in the organization's key pool (wallets are generated from them).
 */
export async function signerKeystore(stack: Stack, person: Person, path: string, passphrase: string, poolKeys = 0): Promise<void> {
  const keystore = await createKeystore(path, passphrase, { kdf: FAST_KDF });
  try {
    await keystore.update((contents) => {
      contents.apiKey = person.apiKey;
    });
    if (poolKeys > 0) {
      const api = signerApi(createServiceClient({ url: stack.baseUrl, apiKey: person.apiKey, ca: stack.cert }));
      await enrollKeys({ keystore, api, tenantId: person.tenantId, count: poolKeys });
    }
  } finally {
    keystore.close();
  }
}

/**
 * Waits until the transaction has `status`, reading it through the API; usable in hooks, where
 * expect.poll is not. Fails after `timeoutMs` with the record as it stands.
 */
export async function waitForTransactionStatus(
  stack: Stack,
  person: Person,
  id: string,
  status: string,
  timeoutMs = 60_000,
): Promise<void> {
  const read = async () => (await callApi(stack, person, "GET", `/v1/transactions/${id}`)).json as { status: string };
  for (let waited = 0; (await read()).status !== status; waited += 250) {
    if (waited > timeoutMs) throw new Error(`${id} did not reach ${status} within ${timeoutMs} ms: ${JSON.stringify(await read())}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Signs a transfer waiting for its signature as the customer's signer does: the pending request
 * read, rebuilt and verified from the shown fields with `keystore`'s key, signed and submitted.
 */
export async function signPendingTransfer(stack: Stack, person: Person, keystore: UnlockedKeystore, id: string): Promise<void> {
  const api = signerApi(createServiceClient({ url: stack.baseUrl, apiKey: person.apiKey, ca: stack.cert }));
  const { transactions } = await api.pendingTransactions();
  const pending = transactions.find((tx) => tx.id === id);
  if (!pending) throw new Error(`${id} is not waiting for a signature`);
  const verified = verifySigningRequest(
    readTransfer({ transaction: pending, assets: await api.assets("QUANTUM_SANDBOX"), findKey: (a) => keystore.findKey(a) }),
  );
  await api.submitSignature(id, signTransfer(verified));
}
