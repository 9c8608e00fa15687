import { nativeAssetId } from "@qc/core";

/**
 * Values the routers' examples share, so that one operation's output and the next one's input
 * tell one consistent story in the API reference (the vault created is the vault listed). Each
 * example is parsed with its procedure's schemas by openapi.test.ts.
 */
export const EXAMPLE = {
  tenantId: "0194f2c4-6f1e-7c3a-9b2d-3e4f5a6b7c8d",
  userId: "0194f2c4-5e0d-7b29-8a1c-2d3e4f5a6b7c",
  vaultId: "0194f2c4-7a10-7d2e-8f3a-1b2c3d4e5f60",
  mainnetVaultId: "0194f2c4-7b42-7a1d-9e8f-6a5b4c3d2e1f",
  walletId: "0194f2c4-8b21-7e3f-9a4b-2c3d4e5f6071",
  tokenAssetId: "0194f2c4-9c32-7f40-8b5c-3d4e5f607182",
  auditEventId: "0194f2c4-ad43-7051-9c6d-4e5f60718293",
  emailId: "0194f2c4-be54-7162-8d7e-5f60718293a4",
  sandboxNativeAssetId: nativeAssetId("QUANTUM_SANDBOX"),
  keyId: "qc_5f0c8a3e9b7d4c21a6e3f0b8d2c4a7e9",
  newKeyId: "qc_8e2d4b6f1a3c5e7092b4d6f8a0c2e4f6",
  secret: "3c9a7e1f5b2d8c4a6e0f9b3d7a1c5e8f2b6d0a4c8e2f6b0d4a8c2e6f0b4d8a2c",
  sessionToken: "qs_6b1f9d3a7c5e2b8d4f0a6c2e8b4d0f6a2c8e4b0d6f2a8c4e0b6d2f8a4c0e6b2d",
  address: "0x4f6a0b9f8e0d35d7c1f0a3f5e4b1c2d3e4f5a6b7",
  tokenAddress: "0x7a3b5c9d1e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b",
  /** ML-DSA-87 public keys and proofs are thousands of hex digits; examples show their start. */
  publicKey: "0x9f3c1a7e…(2592 bytes as hex)",
  proof: "0x5e8b2d4f…(4627 bytes as hex)",
  createdAt: "2026-11-21T10:00:00.000Z",
  updatedAt: "2026-11-21T10:05:00.000Z",
} as const;

export const EXAMPLE_VAULT = {
  id: EXAMPLE.vaultId,
  tenantId: EXAMPLE.tenantId,
  networkCode: "QUANTUM_SANDBOX",
  name: "Treasury",
  status: "ACTIVE",
  metadata: { desk: "treasury" },
  createdAt: EXAMPLE.createdAt,
  updatedAt: EXAMPLE.createdAt,
} as const;

export const EXAMPLE_WALLET = {
  id: EXAMPLE.walletId,
  vaultId: EXAMPLE.vaultId,
  tenantId: EXAMPLE.tenantId,
  assetIds: [EXAMPLE.sandboxNativeAssetId],
  networkLinks: [{ networkCode: "QUANTUM_SANDBOX", vaultId: EXAMPLE.vaultId }],
  address: EXAMPLE.address,
  publicKey: EXAMPLE.publicKey,
  label: "hot wallet 1",
  status: "ACTIVE",
  type: "SIGNER_MANAGED",
  createdAt: EXAMPLE.createdAt,
} as const;

export const EXAMPLE_NATIVE_ASSET = {
  id: EXAMPLE.sandboxNativeAssetId,
  networkCode: "QUANTUM_SANDBOX",
  kind: "NATIVE",
  symbol: "Q",
  name: "Quantum",
  decimals: 18,
  contractAddress: null,
} as const;

export const EXAMPLE_TOKEN_ASSET = {
  id: EXAMPLE.tokenAssetId,
  networkCode: "QUANTUM_SANDBOX",
  kind: "TOKEN",
  symbol: "USDQ",
  name: "Quantum Dollar",
  decimals: 6,
  contractAddress: EXAMPLE.tokenAddress,
} as const;

export const EXAMPLE_API_KEY = {
  keyId: EXAMPLE.keyId,
  tenantId: EXAMPLE.tenantId,
  label: "payouts service",
  status: "ACTIVE",
  scopes: ["write"],
  createdAt: EXAMPLE.createdAt,
  expiresAt: null,
  lastUsedAt: EXAMPLE.updatedAt,
  exposed: false,
  createdByUserId: EXAMPLE.userId,
} as const;

export const EXAMPLE_KYC_CASE = {
  tenantId: EXAMPLE.tenantId,
  status: "PENDING",
  provider: "sandbox",
  reference: "sandbox_5d1e7a3c-2b4f-4c8e-9a6d-0f1b3c5e7a9d",
  startedAt: EXAMPLE.createdAt,
  decidedAt: null,
  reason: null,
} as const;

export const EXAMPLE_LAST_PAGE = { nextCursor: null, hasMore: false } as const;
