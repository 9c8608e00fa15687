"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { Transaction } from "../../../../src/dashboard/router-types";
import { useTRPC } from "../../../../src/dashboard/trpc";
import { TextField } from "../../../_components/field";
import { ErrorNotice } from "../../../_components/states";

/**
 * A sent transaction not yet mined (BROADCASTING, CONTRACT §17): speed it up (a REPLACEMENT with
 * higher fee caps) or cancel it on chain (a CANCELLATION: zero value to the source itself). Both
 * create a new record for the signer and open it; the fee rule is the service's, the optional
 * fee cap only a floor.
 */
export function ReplaceSection({ transaction }: { transaction: Transaction }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [maxFeePerGas, setMaxFeePerGas] = useState("");
  const open = (created: Transaction) => router.push(`/transactions/${created.id}`);
  const speedUp = useMutation(trpc.transactions.speedUp.mutationOptions({ onSuccess: open }));
  const cancel = useMutation(trpc.transactions.cancel.mutationOptions({ onSuccess: open }));
  const busy = speedUp.isPending || cancel.isPending;

  function submitSpeedUp(event: FormEvent) {
    event.preventDefault();
    const floor = maxFeePerGas.trim();
    speedUp.mutate({ transactionId: transaction.id, ...(floor ? { maxFeePerGas: floor } : {}) });
  }

  return (
    <form onSubmit={submitSpeedUp} className="panel" data-testid="replace-section">
      <h2>Speed up or cancel</h2>
      <p className="muted small">
        Sent and waiting to be mined. Both sign a new transaction at nonce {transaction.nonce} with fee caps at least 12.5 % higher and
        enough for the network&apos;s current base fee; whichever transaction of the nonce is mined first ends the others.
      </p>
      <TextField
        label="Max fee per gas (Qwei, optional)"
        value={maxFeePerGas}
        inputMode="numeric"
        onChange={(e) => setMaxFeePerGas(e.target.value)}
        hint="A floor: the service may set it higher."
      />
      <button type="submit" disabled={busy}>
        Speed up
      </button>{" "}
      <button type="button" className="danger" disabled={busy} onClick={() => cancel.mutate({ transactionId: transaction.id })}>
        Cancel on chain
      </button>
      <ErrorNotice error={speedUp.error} title="Could not speed it up" />
      <ErrorNotice error={cancel.error} title="Could not cancel it on chain" />
    </form>
  );
}
