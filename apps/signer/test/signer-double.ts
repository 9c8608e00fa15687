import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  addressFromPublicKey,
  buildQuantumTransfer,
  NETWORKS,
  serializeQuantumTransaction,
  signingHash,
  verifyOwnershipProof,
  type NetworkCode,
} from "@qc/chain";
import type { Hex } from "viem";
import type { Asset } from "../src/lib/service/signer-api";

/**
 * A local stand-in for the service's signer routes, for what the real server cannot be made
 * to do: send a signing request that contradicts the record it displays. It answers the same
 * routes with the contract's shapes and flat error body, and records every POST.
 */

export type DoubleAsset = {
  id: string;
  networkCode: string;
  kind: Asset["kind"];
  symbol: string;
  name: string;
  decimals: number;
  contractAddress: string | null;
};

export const NATIVE_SANDBOX: DoubleAsset = {
  id: "011620ab-6fee-5894-b105-6c22053cf11e",
  networkCode: "QUANTUM_SANDBOX",
  kind: "NATIVE",
  symbol: "Q",
  name: "Q",
  decimals: 18,
  contractAddress: null,
};

export type TransferFields = {
  id: string;
  networkCode: NetworkCode;
  chainId: number;
  sourceAddress: string;
  destinationAddress: string;
  asset: DoubleAsset;
  amount: bigint;
  nonce: number;
  fee: { gasLimit: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
};

/** What the transaction to sign is built from, when the service lies: overrides of the shown fields, or raw calldata. */
export type Tampering = Partial<Omit<TransferFields, "id" | "asset" | "sourceAddress" | "fee">> & {
  fee?: Partial<TransferFields["fee"]>;
  data?: Hex;
  signingHash?: Hex;
};

/**
 * A pending transaction record (CONTRACT §6) with its signing request, built from `fields`
 * exactly as the service builds it, or from `fields` with `tamper` applied to the signing
 * request only (the record still shows `fields`).
 */
export function pendingTransfer(fields: TransferFields, tamper: Tampering = {}): Record<string, unknown> {
  const signed = { ...fields, ...tamper, fee: { ...fields.fee, ...tamper.fee } };
  const transaction = buildQuantumTransfer({
    chainId: signed.chainId,
    nonce: signed.nonce,
    maxFeePerGas: signed.fee.maxFeePerGas,
    maxPriorityFeePerGas: signed.fee.maxPriorityFeePerGas,
    gas: signed.fee.gasLimit,
    to: signed.destinationAddress,
    amount: signed.amount,
    token: fields.asset.contractAddress,
  });
  if (tamper.data) transaction.data = tamper.data;
  const unsignedTransaction = serializeQuantumTransaction(transaction);
  return {
    id: fields.id,
    tenantId: "00000000-0000-7000-8000-000000000001",
    externalId: null,
    type: "TRANSFER",
    networkCode: fields.networkCode,
    chainId: fields.chainId,
    sourceWalletId: "00000000-0000-7000-8000-000000000002",
    sourceAddress: fields.sourceAddress,
    destinationAddress: fields.destinationAddress,
    assetId: fields.asset.id,
    amount: fields.amount.toString(),
    status: "PENDING_SIGNATURE",
    subStatus: null,
    statusReason: null,
    nonce: fields.nonce,
    fee: {
      gasLimit: fields.fee.gasLimit.toString(),
      maxFeePerGas: fields.fee.maxFeePerGas.toString(),
      maxPriorityFeePerGas: fields.fee.maxPriorityFeePerGas.toString(),
    },
    signingHash: tamper.signingHash ?? signingHash(transaction),
    note: null,
    createdAt: "2026-11-21T10:00:00.000Z",
    updatedAt: "2026-11-21T10:00:00.000Z",
    signingRequest: {
      unsignedTransaction,
      signingHash: tamper.signingHash ?? signingHash(transaction),
      descriptor: "0x010000",
      context: "QUANTUM-TX-v1",
    },
  };
}

export function sandboxFields(overrides: Partial<TransferFields> & Pick<TransferFields, "id" | "sourceAddress">): TransferFields {
  return {
    networkCode: "QUANTUM_SANDBOX",
    chainId: NETWORKS.QUANTUM_SANDBOX.chainId,
    destinationAddress: "0x00000000000000000000000000000000000b0b5e",
    asset: NATIVE_SANDBOX,
    amount: 1_500_000_000_000_000_000n,
    nonce: 7,
    fee: { gasLimit: 21_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n },
    ...overrides,
  };
}

export type RecordedPost = { path: string; body: any };

export type SignerDouble = {
  url: string;
  apiKey: string;
  tenantId: string;
  posts: RecordedPost[];
  transactions: Record<string, unknown>[];
  assets: DoubleAsset[];
  /** The tenant's wallets (`GET /v1/vault/accounts` lists their vaults). */
  wallets: { id: string; vaultId: string; type: string; address: string; publicKey: string | null; label: string | null; status: string }[];
  /**
   * Makes a later `POST /v1/signer/keys` fail once with `status`: after `skip` successful
   * ones, and (`applied`) after enrolling the keys anyway, as when an answer is lost.
   */
  failEnrollment(options: { status: number; skip?: number; applied?: boolean }): void;
  /** Milliseconds every POST is held after it is recorded and before it is applied and answered (a slow service). */
  postDelayMs: number;
  close(): Promise<void>;
};

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function error(res: ServerResponse, status: number, name: string, code: number, message: string) {
  send(res, status, { error: name, code, message, requestId: "double-request" });
}

async function readJson(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

/** More routes for a double (the approval routes of approval-double.ts): an answer, or undefined for none. */
export type ExtraRoutes = (request: { method: string; url: URL; body: any }) => { status: number; body: unknown } | undefined;

export async function startSignerDouble(
  options: { tenantId?: string; apiKey?: string; extraRoutes?: ExtraRoutes } = {},
): Promise<SignerDouble> {
  const tenantId = options.tenantId ?? "0193a5c0-0000-7000-8000-00000000d0b1";
  const apiKey = options.apiKey ?? `qc_${"d".repeat(32)}:${"5".repeat(64)}`;
  const posts: RecordedPost[] = [];
  const transactions: Record<string, unknown>[] = [];
  const assets: DoubleAsset[] = [NATIVE_SANDBOX];
  const wallets: SignerDouble["wallets"] = [];
  const enrolled = new Set<string>();
  let enrollmentFailure: { status: number; skip: number; applied: boolean } | undefined;
  const double = { postDelayMs: 0 } as SignerDouble;

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://double");
    if (req.headers.authorization !== `Bearer ${apiKey}`)
      return error(res, 401, "UNAUTHENTICATED", 1010, "missing, malformed or wrong credentials");
    const body = req.method === "POST" ? await readJson(req) : undefined;
    if (req.method === "POST") {
      posts.push({ path: url.pathname, body });
      if (double.postDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, double.postDelayMs));
    }

    if (req.method === "GET" && url.pathname === "/v1/onboarding/status") {
      return send(res, 200, { tenantId, status: "VERIFIED", emailVerified: true, kyc: null, valueMovingEnabled: true, nextStep: "NONE" });
    }
    if (req.method === "GET" && url.pathname === "/v1/signer/transactions") {
      const pending =
        url.searchParams.get("status") === "PENDING_SIGNATURE"
          ? transactions.filter((t) => t.status === "PENDING_SIGNATURE")
          : transactions;
      return send(res, 200, { transactions: pending, page: { nextCursor: null, hasMore: false } });
    }
    if (req.method === "GET" && url.pathname === "/v1/assets") {
      const network = url.searchParams.get("networkCode");
      return send(res, 200, {
        assets: assets.filter((a) => !network || a.networkCode === network),
        page: { nextCursor: null, hasMore: false },
      });
    }
    if (req.method === "GET" && url.pathname === "/v1/vault/accounts") {
      const vaults = [...new Set(wallets.map((w) => w.vaultId))].map((id) => ({
        id,
        tenantId,
        name: "vault",
        networkCode: "QUANTUM_SANDBOX",
        status: "ACTIVE",
      }));
      return send(res, 200, { vaults, page: { nextCursor: null, hasMore: false } });
    }
    const vaultWallets = /^\/v1\/vault\/accounts\/([^/]+)\/wallets$/.exec(url.pathname);
    if (req.method === "GET" && vaultWallets) {
      return send(res, 200, {
        wallets: wallets.filter((w) => w.vaultId === vaultWallets[1]).map((w) => ({ ...w, tenantId })),
        page: { nextCursor: null, hasMore: false },
      });
    }
    const one = /^\/v1\/transactions\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && one) {
      const found = transactions.find((t) => t.id === one[1]);
      return found ? send(res, 200, found) : error(res, 404, "NOT_FOUND", 1030, "transaction not found");
    }
    const action = /^\/v1\/signer\/transactions\/([^/]+)\/(signature|reject)$/.exec(url.pathname);
    if (req.method === "POST" && action) {
      const found = transactions.find((t) => t.id === action[1]);
      if (!found) return error(res, 404, "NOT_FOUND", 1030, "transaction not found");
      if (found.status !== "PENDING_SIGNATURE")
        return error(res, 409, "INVALID_TRANSACTION_STATE", 1203, "transaction is not pending signature");
      if (action[2] === "signature") Object.assign(found, { status: "SIGNED", subStatus: null });
      else Object.assign(found, { status: "REJECTED", subStatus: "REJECTED_BY_SIGNER", statusReason: body?.reason ?? null });
      const { signingRequest: _request, ...record } = found;
      return send(res, 200, record);
    }
    if (req.method === "POST" && url.pathname === "/v1/signer/keys") {
      const keys = (body?.keys ?? []) as { publicKey: string; proof: string }[];
      const failure = enrollmentFailure && enrollmentFailure.skip-- <= 0 ? enrollmentFailure : undefined;
      if (failure) {
        enrollmentFailure = undefined;
        if (failure.applied) for (const key of keys) enrolled.add(key.publicKey);
        if (failure.status >= 500) return error(res, failure.status, "UNAVAILABLE", 1070, "the database is unavailable");
        return error(res, failure.status, "INVALID_OWNERSHIP_PROOF", 1105, "ownership proof does not verify");
      }
      for (const [index, key] of keys.entries()) {
        const address = addressFromPublicKey(key.publicKey as Hex);
        if (!verifyOwnershipProof({ tenantId, address, publicKey: key.publicKey, signature: key.proof })) {
          return error(res, 400, "INVALID_OWNERSHIP_PROOF", 1105, `ownership proof ${index} does not verify`);
        }
      }
      let added = 0;
      for (const key of keys) if (!enrolled.has(key.publicKey) && enrolled.add(key.publicKey)) added += 1;
      return send(res, 201, { enrolled: added, skipped: keys.length - added, available: enrolled.size, assigned: 0 });
    }
    const register = /^\/v1\/vault\/accounts\/([^/]+)\/wallets$/.exec(url.pathname);
    if (req.method === "POST" && register) {
      if (!verifyOwnershipProof({ tenantId, address: body.address, publicKey: body.publicKey, signature: body.signature })) {
        return error(res, 400, "INVALID_OWNERSHIP_PROOF", 1105, "ownership proof does not verify");
      }
      return send(res, 201, {
        id: "0193a5c0-0000-7000-8000-0000000000aa",
        vaultId: register[1],
        tenantId,
        assetIds: [NATIVE_SANDBOX.id],
        networkLinks: [],
        address: body.address,
        publicKey: body.publicKey,
        label: body.label ?? null,
        status: "ACTIVE",
        type: "REGISTERED",
        createdAt: new Date().toISOString(),
      });
    }
    const extra = options.extraRoutes?.({ method: req.method ?? "GET", url, body });
    if (extra) return send(res, extra.status, extra.body);
    return error(res, 404, "NOT_FOUND", 1030, `no route ${req.method} ${url.pathname}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  Object.assign(double, {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    tenantId,
    posts,
    transactions,
    assets,
    wallets,
    failEnrollment({ status, skip = 0, applied = false }) {
      enrollmentFailure = { status, skip, applied };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } satisfies Omit<SignerDouble, "postDelayMs">);
  return double;
}
