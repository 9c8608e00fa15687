"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { BASE_UNIT, GAS_PRICE_LABEL, GAS_PRICE_UNIT, gasPricesInWords, parseGasPrice } from "../../../../src/dashboard/amounts";
import type { Transaction } from "../../../../src/dashboard/router-types";
import { useTRPC } from "../../../../src/dashboard/trpc";
import { TextField } from "../../../_components/field";
import { ErrorNotice } from "../../../_components/states";
import { formFailure } from "../../../_components/form-failure";
import { GasPrice } from "../../../_components/amount";

/**
 * A sent transaction not yet mined (BROADCASTING, CONTRACT §17): speed it up (a REPLACEMENT with
 * higher fee caps) or cancel it on chain (a CANCELLATION: zero value to the source itself). Both
 * create a new record for the signer and open it; the fee rule is the service's, the optional
 * fee cap only a floor.
 */
export function ReplaceSection({ transaction }: { transaction: Transaction }) {
  const trpc = useTRPC();
  const router = useRouter();
  // Typed in Gqwei per gas, sent in Qwei per gas (amounts.ts): exact, refused past 9 decimals.
  const [maxFeePerGas, setMaxFeePerGas] = useState("");
  const typed = maxFeePerGas.trim();
  const floor = typed ? parseGasPrice(typed) : undefined;
  const open = (created: Transaction) => router.push(`/transactions/${created.id}`);
  const speedUp = useMutation(trpc.transactions.speedUp.mutationOptions({ onSuccess: open }));
  const cancel = useMutation(trpc.transactions.cancel.mutationOptions({ onSuccess: open }));
  const busy = speedUp.isPending || cancel.isPending;
  // The service's refusal of the floor (above MAX_FEE_PER_GAS_CAP) beside the field, in Gqwei/gas.
  const failure = formFailure(speedUp.error, ["maxFeePerGas"]);
  const refused = failure.field("maxFeePerGas");

  function submitSpeedUp(event: FormEvent) {
    event.preventDefault();
    if (floor && !floor.ok) return;
    speedUp.mutate({ transactionId: transaction.id, ...(floor ? { maxFeePerGas: floor.raw } : {}) });
  }

  return (
    <form onSubmit={submitSpeedUp} className="panel" data-testid="replace-section">
      <h2>Speed up or cancel</h2>
      <p className="muted small">
        Sent and waiting to be mined. Both sign a new transaction at nonce {transaction.nonce} with fee caps at least 12.5 % higher and
        enough for the network&apos;s current base fee; whichever transaction of the nonce is mined first ends the others.
      </p>
      {transaction.fee && (
        <p className="small" data-testid="current-fee-caps">
          Now: max fee <GasPrice raw={transaction.fee.maxFeePerGas} />, max priority fee{" "}
          <GasPrice raw={transaction.fee.maxPriorityFeePerGas} />.
        </p>
      )}
      <TextField
        label={`Max fee per gas (${GAS_PRICE_LABEL}, optional)`}
        value={maxFeePerGas}
        inputMode="decimal"
        onChange={(e) => setMaxFeePerGas(e.target.value)}
        error={floor && !floor.ok ? floor.message : refused && gasPricesInWords(refused)}
        hint={`A floor: the service may set it higher. 1 ${GAS_PRICE_UNIT.name} = 10^${GAS_PRICE_UNIT.decimals} ${BASE_UNIT}.`}
      />
      <button type="submit" disabled={busy || floor?.ok === false}>
        Speed up
      </button>{" "}
      <button type="button" className="danger" disabled={busy} onClick={() => cancel.mutate({ transactionId: transaction.id })}>
        Cancel on chain
      </button>
      {failure.form && <ErrorNotice error={speedUp.error} title="Could not speed it up" />}
      <ErrorNotice error={cancel.error} title="Could not cancel it on chain" />
    </form>
  );
}
