import type { ReactNode } from "react";
import { STATUS_TONES, type BadgeStatus } from "../../src/dashboard/vocabulary";

/** A status exactly as the contract names it, coloured by what it means (the tones: vocabulary.ts). */
export function StatusBadge({ status, children }: { status: BadgeStatus; children?: ReactNode }) {
  return (
    <span className={`badge ${STATUS_TONES[status]}`} data-status={status}>
      {children ?? status}
    </span>
  );
}
