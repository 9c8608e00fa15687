/**
 * What the pipeline benchmark sets up before it measures (not measured): a tenant and its API
 * key, the source keys enrolled through the reference signer's library, and a funded wallet per
 * source.
 */
import { createHash, randomBytes } from "node:crypto";
import { signOwnershipProof } from "@qc/chain";
import { ENDED_WITHOUT_TRANSFER } from "@qc/core";
import { createDatabase, eq, schema, sql } from "@qc/db";
import { keyFromSeed, secretKeyOf, signerApi, type StoredKey } from "@qc/signer";
import { benchTenant } from "./api-setup";
import { rpc, webClient } from "./pipeline-stack";

type Address = `0x${string}`;

const Q = 10n ** 18n;

/** `count` source keys, from `seed` (BENCH_SEED) so that a re-run uses the same ones. */
function sourceKeys(tenantId: string, count: number, seed: string): StoredKey[] {
  return Array.from({ length: count }, (_, i) => {
    const keySeed = createHash("sha256").update(`qc-bench-pipeline:${seed}:${i}`).digest();
    const material = keyFromSeed(new Uint8Array(keySeed));
    const now = new Date().toISOString();
    return {
      ...material,
      origin: "IMPORTED",
      status: "ENROLLED",
      tenantId,
      createdAt: now,
      acceptedAt: now,
      vaultId: null,
      walletId: null,
      label: null,
    };
  });
}

export type Source = { walletId: string; address: Address };

/** Tenant, API key, enrolled keys, funded wallets: not measured. */
export async function prepare(databaseUrl: string) {
  const database = createDatabase({ url: databaseUrl, applicationName: "qc-bench" });
  const pepper = randomBytes(32);
  const { tenantId, apiKey } = await benchTenant(database.db, pepper);
  return { database, pepper, tenantId, apiKey };
}

export async function setUpSources(params: {
  web: ReturnType<typeof webClient>;
  signer: ReturnType<typeof signerApi>;
  tenantId: string;
  rpcUrl: string;
  sources: number;
  seed: string;
}) {
  const expect = async <T>(pending: Promise<{ status: number; json: T }>, status: number, what: string): Promise<T> => {
    const res = await pending;
    if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json;
  };
  const keys = sourceKeys(params.tenantId, params.sources, params.seed);
  for (let i = 0; i < keys.length; i += 25) {
    await params.signer.enrollKeys(
      keys.slice(i, i + 25).map((k) => {
        const secretKey = secretKeyOf(k);
        try {
          return { publicKey: k.publicKey, proof: signOwnershipProof({ tenantId: params.tenantId, address: k.address, secretKey }) };
        } finally {
          secretKey.fill(0);
        }
      }),
    );
  }
  const vault = await expect(
    params.web<{ id: string }>("POST", "/v1/vault/accounts", { name: "bench", networkCode: "QUANTUM_SANDBOX" }),
    201,
    "vault",
  );
  const sources: Source[] = [];
  for (let i = 0; i < params.sources; i++) {
    const wallet = await expect(
      params.web<{ id: string; address: Address }>("POST", `/v1/vault/accounts/${vault.id}/wallets/generate`, {}),
      201,
      "wallet",
    );
    await rpc(params.rpcUrl, "devnet_fund", [wallet.address, `0x${(1000n * Q).toString(16)}`]);
    sources.push({ walletId: wallet.id, address: wallet.address });
  }
  const assets = await params.signer.assets("QUANTUM_SANDBOX");
  const native = assets.find((a) => a.kind === "NATIVE");
  if (!native) throw new Error("no native asset on QUANTUM_SANDBOX");
  return { keys, sources, assets, native };
}

/**
 * Waits until the tenant has `count` COMPLETED transactions (true) or the deadline passes (false,
 * the counts logged); throws as soon as one ended without moving value (a benchmark's transfers
 * must all complete).
 */
export async function waitForCompletion(
  database: ReturnType<typeof createDatabase>,
  tenantId: string,
  count: number,
  deadline: number,
  log: (message: string) => void,
): Promise<boolean> {
  for (;;) {
    const rows = await database.db
      .select({ status: schema.transactions.status, n: sql<number>`count(*)::int` })
      .from(schema.transactions)
      .where(eq(schema.transactions.tenantId, tenantId))
      .groupBy(schema.transactions.status);
    const bad = rows.filter((r) => (ENDED_WITHOUT_TRANSFER as readonly string[]).includes(r.status));
    if (bad.length) throw new Error(`transfers ended badly: ${JSON.stringify(bad)}`);
    if ((rows.find((r) => r.status === "COMPLETED")?.n ?? 0) >= count) return true;
    if (Date.now() > deadline) {
      log(`deadline: ${JSON.stringify(rows)}`);
      return false;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
