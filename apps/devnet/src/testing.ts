import {
  addressFromPublicKey,
  createQuantumPublicClient,
  generateKeyPair,
  networkByChainId,
  toQuantumAccount,
  type QuantumAccount,
  type QuantumPublicClient,
} from "@qc/chain";
import { bytesToHex, type Address, type Hex } from "viem";
import { afterAll, beforeAll } from "vitest";
import { startDevnet, type Devnet, type StartDevnetOptions } from "./start-devnet";

/**
 * Test harness: an isolated devnet per test file (own port, own state, no data dir), plus
 * helpers to call it. Blocks are mined on demand by default (`blockTimeMs: 0`).
 */
export type TestDevnet = Devnet & {
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  fund(address: Address, amount: bigint): Promise<bigint>;
  mine(count?: number): Promise<bigint>;
  publicClient(options?: { pollingInterval?: number }): QuantumPublicClient;
};

export class DevnetRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message);
  }
}

export async function rpcCall<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { code: number; message: string; data?: unknown } };
  if (body.error) throw new DevnetRpcError(body.error.code, body.error.message, body.error.data);
  return body.result as T;
}

export async function startTestDevnet(options: Partial<StartDevnetOptions> = {}): Promise<TestDevnet> {
  const devnet = await startDevnet({ chainId: 20804, port: 0, blockTimeMs: 0, ...options });
  const network = networkByChainId(devnet.chainId);
  return {
    ...devnet,
    rpc: (method, params) => rpcCall(devnet.url, method, params),
    fund: async (address, amount) => BigInt(await rpcCall<Hex>(devnet.url, "devnet_fund", [address, `0x${amount.toString(16)}`])),
    mine: async (count = 1) => BigInt(await rpcCall<Hex>(devnet.url, "devnet_mine", [`0x${count.toString(16)}`])),
    publicClient: ({ pollingInterval = 50 } = {}) =>
      createQuantumPublicClient(network?.networkCode ?? "QUANTUM_SANDBOX", devnet.url, { pollingInterval, retryCount: 0 }),
  };
}

/** Vitest: starts a devnet before the file's tests and closes it after. Call at module level. */
export function useDevnet(options: Partial<StartDevnetOptions> = {}): () => TestDevnet {
  let devnet: TestDevnet | undefined;
  beforeAll(async () => {
    devnet = await startTestDevnet(options);
  });
  afterAll(async () => {
    await devnet?.close();
  });
  return () => {
    if (!devnet) throw new Error("useDevnet(): the devnet starts in beforeAll; call the getter inside a test");
    return devnet;
  };
}

export type TestAccount = {
  address: Address;
  publicKey: Hex;
  secretKey: Uint8Array;
  account: QuantumAccount;
};

/** A fresh ML-DSA-87 key pair wrapped as a viem account, funded on the devnet. */
export async function createFundedAccount(devnet: Pick<TestDevnet, "fund">, amount: bigint, seed?: Uint8Array): Promise<TestAccount> {
  const { publicKey, secretKey } = generateKeyPair(seed);
  const address = addressFromPublicKey(publicKey);
  if (amount > 0n) await devnet.fund(address, amount);
  return { address, publicKey: bytesToHex(publicKey), secretKey, account: toQuantumAccount({ secretKey, publicKey }) };
}
