"use client";

import { useQueries, useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../../src/dashboard/trpc";
import { SelectField } from "../../_components/field";

/**
 * The list's wallet filter: any wallet, or one of the organization's, named by vault, label and
 * address. There is no "all wallets" listing (a wallet lives in a vault), so each vault's are
 * read. A wallet id from a shared address that is not among them (another page of vaults) still
 * shows, by its id.
 */
export function WalletFilterField({ value, onChange }: { value: string; onChange: (walletId: string) => void }) {
  const trpc = useTRPC();
  const vaults = useQuery(trpc.vaults.list.queryOptions({ limit: 200 }));
  const wallets = useQueries({
    queries: (vaults.data?.vaults ?? []).map((vault) => trpc.wallets.listByVault.queryOptions({ vaultAccountId: vault.id, limit: 200 })),
  });
  const options = (vaults.data?.vaults ?? []).flatMap((vault, i) =>
    (wallets[i]?.data?.wallets ?? []).map((wallet) => ({
      id: wallet.id,
      name: `${vault.name} · ${wallet.label ?? "wallet"} · ${wallet.address.slice(0, 6)}…${wallet.address.slice(-4)}`,
    })),
  );
  const unknown = value !== "" && !options.some((option) => option.id === value);
  return (
    <SelectField label="Wallet" value={value} onChange={(e) => onChange(e.target.value)} hint="Sent from it, or deposited to it.">
      <option value="">Any wallet</option>
      {unknown && <option value={value}>{value}</option>}
      {options.map((option) => (
        <option key={option.id} value={option.id}>
          {option.name}
        </option>
      ))}
    </SelectField>
  );
}
