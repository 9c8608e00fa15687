"use client";

import { useQuery } from "@tanstack/react-query";
import type { Asset } from "../../src/dashboard/router-types";
import { useTRPC } from "../../src/dashboard/trpc";

/** Every asset the tenant sees (both networks), by id: symbols and decimals for amounts. */
export function useAssets() {
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.assets.list.queryOptions({ limit: 200 }), staleTime: 60_000 });
  const byId = new Map<string, Asset>((query.data?.assets ?? []).map((asset) => [asset.id, asset]));
  return { byId, assets: query.data?.assets ?? [], query };
}
