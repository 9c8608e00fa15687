import type { NetworkCode } from "@qc/chain";

/**
 * Ids of the native asset of each network: the UUIDv5 of `<networkCode>:native` in the URL
 * namespace (CONTRACT §4), computed once and seeded by packages/db/sql/020_seed_native_assets.sql;
 * native-assets.test.ts recomputes them.
 */
export const NATIVE_ASSET_IDS: Readonly<Record<NetworkCode, string>> = {
  QUANTUM_MAINNET: "92347cd6-e76a-56cb-815d-ad6076ac4439",
  QUANTUM_SANDBOX: "011620ab-6fee-5894-b105-6c22053cf11e",
};

export function nativeAssetId(networkCode: NetworkCode): string {
  return NATIVE_ASSET_IDS[networkCode];
}
