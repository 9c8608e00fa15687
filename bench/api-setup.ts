/**
 * What the benchmarks set up before they measure: a tenant with an API key, and through the web's
 * own API a source wallet registered with its ownership proof and the body of a transfer from it.
 */
import { addressFromPublicKey, generateKeyPair, signOwnershipProof } from "@qc/chain";
import { nativeAssetId } from "@qc/core";
import { createTenantFixture } from "@qc/core/testing";
import type { Database } from "@qc/db";

/**
 * A VERIFIED tenant, its OWNER and an API key the OWNER created (a key acts with its creator's
 * role: CONTRACT §14), issued by the service (`pepper`: the web's API_KEY_PEPPER).
 */
export async function benchTenant(
  db: Database,
  pepper: Buffer,
): Promise<{ tenantId: string; secret: string; apiKey: string; authorization: string }> {
  const tenant = await createTenantFixture({ db, pepper }, { name: "Bench" });
  const apiKey = `${tenant.keyId}:${tenant.secret}`;
  return { tenantId: tenant.tenantId, secret: tenant.secret, apiKey, authorization: `Bearer ${apiKey}` };
}

/** POSTs JSON to the web with the bench's API key; throws unless it answers 201. */
export function apiPoster(base: string, authorization: string) {
  return async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ id: string }> => {
    const res = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { authorization, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { id: string };
  };
}

/** A fresh key pair's address registered in the vault through the API (ownership proof and all). */
export function registerSourceWallet(post: ReturnType<typeof apiPoster>, tenantId: string, vaultId: string): Promise<{ id: string }> {
  const keys = generateKeyPair();
  const address = addressFromPublicKey(keys.publicKey);
  return post(`/v1/vault/accounts/${vaultId}/wallets`, {
    address,
    publicKey: `0x${Buffer.from(keys.publicKey).toString("hex")}`,
    signature: signOwnershipProof({ tenantId, address, secretKey: keys.secretKey }),
  });
}

/** A native transfer of 1 unit from the wallet, as `POST /v1/transactions` takes it. */
export function benchTransfer(sourceWalletId: string) {
  return {
    networkCode: "QUANTUM_SANDBOX",
    sourceWalletId,
    destinationAddress: "0x5b38da6a701c568545dcfcb03fcb875f56beddc4",
    assetId: nativeAssetId("QUANTUM_SANDBOX"),
    amount: "1000000000000000000",
    note: "bench",
  };
}
