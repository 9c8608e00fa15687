import {
  addressFromPublicKey,
  createQuantumPublicClient,
  ERC20_ABI,
  generateKeyPair,
  networkByChainId,
  toQuantumAccount,
  type QuantumAccount,
  type QuantumPublicClient,
} from "@qc/chain";
import { QUANTUM_TEST_TOKEN } from "@qc/chain/contracts";
import { bytesToHex, createWalletClient, http, type Address, type Hex } from "viem";
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

/** A wallet client of an outside key on the devnet (the sender of deposits in tests). */
function outsideWallet(devnet: Pick<TestDevnet, "url" | "chainId">, from: TestAccount) {
  const network = networkByChainId(devnet.chainId);
  const chain = createQuantumPublicClient(network?.networkCode ?? "QUANTUM_SANDBOX", devnet.url).chain;
  return createWalletClient({ account: from.account, chain, transport: http(devnet.url) });
}

/**
 * Sends native value from an outside key (into the pool; mine to include it): a plain transfer, or
 * a call with `data` (and `gas`, default 200,000). Returns the transaction hash.
 */
export function sendNative(
  devnet: Pick<TestDevnet, "url" | "chainId">,
  from: TestAccount,
  to: Address,
  value: bigint,
  call?: { data: Hex; gas?: bigint },
): Promise<Hex> {
  return outsideWallet(devnet, from).sendTransaction({ to, value, gas: call ? (call.gas ?? 200_000n) : 21_000n, data: call?.data });
}

/**
 * Deploys the solc-compiled QuantumTestToken (ERC-20) from an outside key, its whole supply
 * minted to that key, and mines it. Returns the token's address (lower-case).
 */
export async function deployTestToken(
  devnet: Pick<TestDevnet, "url" | "chainId" | "mine" | "publicClient">,
  owner: TestAccount,
  options: { symbol?: string; decimals?: number; supply?: bigint } = {},
): Promise<Address> {
  const { symbol = "TST", decimals = 6, supply = 10n ** 15n } = options;
  const hash = await outsideWallet(devnet, owner).deployContract({
    abi: QUANTUM_TEST_TOKEN.abi,
    bytecode: QUANTUM_TEST_TOKEN.bytecode,
    args: [`Test ${symbol}`, symbol, decimals, supply],
  });
  await devnet.mine(1);
  const receipt = await devnet.publicClient().getTransactionReceipt({ hash });
  if (receipt.status !== "success" || !receipt.contractAddress) throw new Error(`the token deployment ${hash} failed`);
  return receipt.contractAddress.toLowerCase() as Address;
}

/** An ERC-20 `transfer` from an outside key (into the pool; mine to include it). Returns the transaction hash. */
export function sendToken(
  devnet: Pick<TestDevnet, "url" | "chainId">,
  from: TestAccount,
  token: Address,
  to: Address,
  amount: bigint,
): Promise<Hex> {
  return outsideWallet(devnet, from).writeContract({
    address: token,
    abi: ERC20_ABI,
    functionName: "transfer",
    args: [to, amount],
    gas: 100_000n,
  });
}
