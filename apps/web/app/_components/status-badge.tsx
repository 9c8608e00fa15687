import type { TransactionSubStatus } from "@qc/domain";
import type { ReactNode } from "react";
import type { TransactionStatus } from "../../src/dashboard/router-types";
import {
  phraseBeside,
  STATUS_PHRASES,
  STATUS_TONES,
  SUB_STATUS_HINTS,
  SUB_STATUS_PHRASES,
  TRANSACTION_STATUS_HINTS,
  type BadgeStatus,
} from "../../src/dashboard/vocabulary";

/**
 * A status exactly as the contract names it, coloured by what it means, with its plain words
 * beside it when they say more than the name ("PENDING_SIGNATURE Waiting for signature"); the
 * tones and words: vocabulary.ts. A badge given other `children` (CLEAR, a count) shows those
 * alone. `hint`: a longer explanation on hover.
 */
export function StatusBadge({ status, children, hint }: { status: BadgeStatus; children?: ReactNode; hint?: string }) {
  const phrase = children === undefined ? phraseBeside(status, STATUS_PHRASES[status]) : undefined;
  const badge = (
    <span className={`badge ${STATUS_TONES[status]}`} data-status={status} title={phrase ? undefined : hint}>
      {children ?? status}
    </span>
  );
  if (!phrase) return badge;
  return (
    <span className="status" title={hint}>
      {badge} <span className="status-phrase">{phrase}</span>
    </span>
  );
}

/** A transaction's subStatus: its name and plain words, what it means on hover. */
export function SubStatus({ subStatus }: { subStatus: TransactionSubStatus }) {
  return (
    <span className="sub-status" title={SUB_STATUS_HINTS[subStatus]} data-sub-status={subStatus}>
      <code>{subStatus}</code> {SUB_STATUS_PHRASES[subStatus]}
    </span>
  );
}

/** A transaction's status and, once it has ended with one, its subStatus; what each means on hover. */
export function TransactionStatusBadge({
  status,
  subStatus,
  stacked = false,
}: {
  status: TransactionStatus;
  subStatus: TransactionSubStatus | null;
  /** The subStatus on a line of its own (in a table cell) rather than after a `·`. */
  stacked?: boolean;
}) {
  return (
    <>
      <StatusBadge status={status} hint={TRANSACTION_STATUS_HINTS[status]} />
      {subStatus &&
        (stacked ? (
          <div className="small">
            <SubStatus subStatus={subStatus} />
          </div>
        ) : (
          <>
            {" "}
            · <SubStatus subStatus={subStatus} />
          </>
        ))}
    </>
  );
}
