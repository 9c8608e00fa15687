import { addressFromPublicKey, generateKeyPair, quantumSandbox, signOwnershipProof } from "@qc/chain";
import { QUANTUM_TEST_TOKEN } from "@qc/chain/contracts";
import { createFundedAccount, type TestDevnet } from "@qc/devnet/testing";
import { expect } from "vitest";
import { bytesToHex, createWalletClient, http, type Address, type Hex } from "viem";
import { waitForTransactionReceipt } from "viem/actions";
import { call, type TestResponse, type TestServer } from "./harness";

/** REST calls as one caller (an `Authorization` header value). */
export function client(server: () => TestServer, authorization: string) {
  const send = (method: string, path: string, body?: unknown) =>
    call(server(), path, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return {
    get: (path: string) => send("GET", path),
    post: (path: string, body: unknown = {}) => send("POST", path, body),
    put: (path: string, body: unknown) => send("PUT", path, body),
  };
}
export type Client = ReturnType<typeof client>;

export function expectError(res: TestResponse, status: number, error: string, code: number) {
  expect({ status: res.status, body: res.json() }).toMatchObject({ status, body: { error, code } });
}

export interface SignerKey {
  address: Address;
  publicKey: Hex;
  secretKey: Uint8Array;
}

export function newSignerKey(): SignerKey {
  const { publicKey, secretKey } = generateKeyPair();
  return { address: addressFromPublicKey(publicKey), publicKey: bytesToHex(publicKey), secretKey };
}

export function proofFor(tenantId: string, key: SignerKey, address: string = key.address): Hex {
  return signOwnershipProof({ tenantId, address, secretKey: key.secretKey });
}

/** Enrolls `n` fresh keys for the tenant (as the signer would) and returns them, oldest first. */
export async function enrollKeys(api: Client, tenantId: string, n: number): Promise<SignerKey[]> {
  const keys = Array.from({ length: n }, newSignerKey);
  for (let i = 0; i < keys.length; i += 25) {
    const batch = keys.slice(i, i + 25);
    const res = await api.post("/v1/signer/keys", { keys: batch.map((k) => ({ publicKey: k.publicKey, proof: proofFor(tenantId, k) })) });
    expect(res.status, res.text).toBe(201);
  }
  return keys;
}

export async function createVault(api: Client, body: { name?: string; networkCode?: string; metadata?: Record<string, string> } = {}) {
  const res = await api.post("/v1/vault/accounts", { name: "Treasury", networkCode: "QUANTUM_SANDBOX", ...body });
  expect(res.status, res.text).toBe(201);
  return res.json() as {
    id: string;
    tenantId: string;
    networkCode: string;
    name: string;
    status: string;
    metadata: Record<string, string>;
  };
}

/** Native asset ids (CONTRACT §4), as seeded. */
export const NATIVE = {
  QUANTUM_MAINNET: "92347cd6-e76a-56cb-815d-ad6076ac4439",
  QUANTUM_SANDBOX: "011620ab-6fee-5894-b105-6c22053cf11e",
} as const;

export const Q = 10n ** 18n;

/**
 * Deploys the chain package's test ERC-20 (packages/chain/contracts/QuantumTestToken) from a
 * freshly funded ML-DSA account and returns the token and its owner (who holds the supply).
 */
export async function deployTestToken(
  devnet: TestDevnet,
  options: { name?: string; symbol?: string; decimals?: number; supply?: bigint } = {},
) {
  const owner = await createFundedAccount(devnet, 100n * Q);
  const wallet = createWalletClient({ account: owner.account, chain: quantumSandbox, transport: http(devnet.url) });
  const hash = await wallet.deployContract({
    abi: QUANTUM_TEST_TOKEN.abi,
    bytecode: QUANTUM_TEST_TOKEN.bytecode,
    args: [options.name ?? "Quantum USD", options.symbol ?? "QUSD", options.decimals ?? 6, options.supply ?? 1_000_000_000_000n],
  });
  const receipt = await waitForTransactionReceipt(devnet.publicClient(), { hash, pollingInterval: 50 });
  expect(receipt.status).toBe("success");
  const token = receipt.contractAddress!.toLowerCase() as Address;
  /** ERC-20 `transfer` from the owner, waited for. */
  const transfer = async (to: Address, amount: bigint) => {
    const tx = await wallet.writeContract({ address: token, abi: QUANTUM_TEST_TOKEN.abi, functionName: "transfer", args: [to, amount] });
    expect((await waitForTransactionReceipt(devnet.publicClient(), { hash: tx, pollingInterval: 50 })).status).toBe("success");
  };
  return { token, owner, transfer };
}
