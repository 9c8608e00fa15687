"use client";

import { PickOne } from "../../_components/pickers";
import { useWalletOptions } from "../../_components/use-picker-options";

/**
 * The list's wallet filter: any wallet, or one of the organization's (the pickers' wallet list:
 * label, short address and vault). A wallet id from a shared address that is not among them
 * (beyond the first 200 of a vault) still shows, by its id.
 */
export function WalletFilterField({ value, onChange }: { value: string; onChange: (walletId: string) => void }) {
  const { options } = useWalletOptions();
  return (
    <PickOne
      label="Wallet"
      options={options}
      value={value}
      onPick={onChange}
      placeholder="Any wallet"
      hint="Sent from it, or deposited to it."
    />
  );
}
