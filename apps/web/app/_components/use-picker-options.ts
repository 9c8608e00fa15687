"use client";

import { useQueries, useQuery } from "@tanstack/react-query";
import type { PickOption } from "../../src/dashboard/pick";
import type { Asset, Vault, Wallet } from "../../src/dashboard/router-types";
import { useTRPC } from "../../src/dashboard/trpc";
import { useAssets } from "./use-assets";

const short = (address: string) => `${address.slice(0, 8)}…${address.slice(-4)}`;

/** Named with its network where the list mixes networks (`acrossNetworks`), by its name alone where the form chose one. */
export const vaultOption = (v: Vault, acrossNetworks = false): PickOption => ({
  value: v.id,
  label: acrossNetworks ? `${v.name} (${v.networkCode})` : v.name,
  keys: [v.name],
});
export const walletOption = (w: Wallet, vault?: Vault): PickOption => ({
  value: w.id,
  label: `${w.label ?? "Unlabelled wallet"} · ${short(w.address)}${vault ? ` in ${vault.name}` : ""}`,
  keys: [w.label ?? "", w.address].filter(Boolean),
});
export const assetOption = (a: Asset, acrossNetworks = false): PickOption => ({
  value: a.id,
  label: `${a.symbol} · ${a.name} (${acrossNetworks ? `${a.networkCode}, ` : ""}${a.decimals} decimals)`,
  keys: [a.symbol, a.name, ...(a.contractAddress ? [a.contractAddress] : [])],
});

/** The tenant's vaults (first 200, any network and status) as picker options. */
export function useVaultOptions() {
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.vaults.list.queryOptions({ limit: 200 }), staleTime: 30_000 });
  const vaults = query.data?.vaults ?? [];
  return { query, vaults, options: vaults.map((v) => vaultOption(v, true)) };
}

/**
 * Every wallet of the tenant's vaults, read vault by vault (first 200 of each), as picker options
 * named by label, short address and vault. A wallet beyond those is still picked by pasting its id.
 */
export function useWalletOptions() {
  const trpc = useTRPC();
  const { vaults, query } = useVaultOptions();
  const lists = useQueries({
    queries: vaults.map((v) => ({ ...trpc.wallets.listByVault.queryOptions({ vaultAccountId: v.id, limit: 200 }), staleTime: 30_000 })),
  });
  const seen = new Set<string>();
  const options: PickOption[] = [];
  lists.forEach((list, i) => {
    for (const w of list.data?.wallets ?? []) {
      // A wallet linked to several vaults is listed under each: named once, by its home vault.
      if (seen.has(w.id)) continue;
      seen.add(w.id);
      options.push(walletOption(w, vaults.find((v) => v.id === w.vaultId) ?? vaults[i]));
    }
  });
  return { query, options };
}

/** Every asset the tenant sees, both networks, by symbol and name. */
export function useAssetOptions() {
  const { assets, query } = useAssets();
  return { query, assets, options: assets.map((a) => assetOption(a, true)) };
}
