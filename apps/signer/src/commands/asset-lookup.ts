import { isNetworkCode } from "@qc/chain";
import type { Asset, SignerApi } from "../lib/service/signer-api";

/** The assets of each network, fetched once per command; none for a network that is not one. */
export function assetLookup(api: SignerApi): (networkCode: unknown) => Promise<Asset[]> {
  const cache = new Map<string, Promise<Asset[]>>();
  return (networkCode) => {
    if (!isNetworkCode(networkCode)) return Promise.resolve([]);
    let assets = cache.get(networkCode);
    if (!assets) {
      assets = api.assets(networkCode);
      cache.set(networkCode, assets);
    }
    return assets;
  };
}
