"use client";

import type { TransactionType } from "@qc/domain";
import type { Transaction } from "../../../src/dashboard/router-types";
import { DIRECTION_MARKERS, TRANSACTION_TYPE_NAMES, TRANSACTION_TYPES } from "../../../src/dashboard/transaction-kinds";
import { SelectField } from "../../_components/field";

/** "In" (a deposit) or "Out" (sent by the service), with its meaning on hover. */
export function DirectionMarker({ direction }: { direction: Transaction["direction"] }) {
  const marker = DIRECTION_MARKERS[direction];
  return (
    <span
      className={`badge ${direction === "INBOUND" ? "ok" : "muted"}`}
      data-testid="transaction-direction"
      data-direction={direction}
      title={marker.hint}
    >
      {marker.label}
    </span>
  );
}

/** The list's type filter: any type, or one (Deposit lists what came in). */
export function TransactionTypeField({ value, onChange }: { value: TransactionType | ""; onChange: (type: TransactionType | "") => void }) {
  return (
    <SelectField label="Type" value={value} onChange={(e) => onChange(e.target.value as TransactionType | "")}>
      <option value="">Any type</option>
      {TRANSACTION_TYPES.map((type) => (
        <option key={type} value={type}>
          {TRANSACTION_TYPE_NAMES[type]}
        </option>
      ))}
    </SelectField>
  );
}
