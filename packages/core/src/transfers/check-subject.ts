import type { NetworkCode } from "@qc/chain";
import type { AssetRow, NewTransactionRow, TransactionRow, WalletRow } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import type { PolicyDecision } from "../policies/evaluate-policy-rules";
import { screenTransferFailingClosed } from "../screening/screen-transfer";
import type { ScreeningRequest, ScreeningResult } from "../screening/screening-provider";
import type { FeeCall } from "./quote-transfer-fees";
import type { ChainQuote } from "./release-for-signing";

/**
 * What the checks read about a transaction, loaded in one statement by `findTransferCheckRows`:
 * the row, its source wallet, the vault the wallet is placed in on the row's network (null: not
 * placed there any more) and its asset (null: none — a deployment — or one the tenant cannot see).
 */
export interface TransferCheckRows {
  transaction: TransactionRow;
  wallet: WalletRow | null;
  vaultId: string | null;
  asset: AssetRow | null;
}

/**
 * What the checks decided about a SUBMITTED transfer or deployment. The decision is separate from
 * what follows (release for signing, or the refusal's status change), so that a later stage (the
 * roadmap's approval quorums, between checks and PENDING_SIGNATURE) can be inserted between them.
 */
export type TransferCheckDecision =
  | {
      outcome: "CLEARED";
      policy: PolicyDecision;
      screening: ScreeningResult;
      /**
       * What the balance check has just asked the chain, to release with (`releaseForSigning`'s
       * `quoted`): the fees and gas of this transaction's call and the source's pending nonce.
       * Absent when the checks did not ask (a re-run) or the pending nonce could not be read.
       */
      chain?: ChainQuote;
    }
  | {
      outcome: "BLOCKED";
      subStatus: "BLOCKED_BY_POLICY" | "REJECTED_AML_SCREENING" | "QUOTA_EXCEEDED";
      reason: string;
      policy: PolicyDecision;
      screening: ScreeningResult | null;
    }
  | {
      outcome: "FAILED";
      /** SIGNATURE_MISMATCH: a deployment whose stored intent no longer rebuilds from the pinned catalog. */
      subStatus: "INSUFFICIENT_FUNDS" | "INTERNAL_ERROR" | "SIGNATURE_MISMATCH";
      reason: string;
      policy: PolicyDecision | null;
      screening: ScreeningResult | null;
    };

/** What the checks decided (and when), written on the row by the move that follows them. */
export type CheckFields = Pick<NewTransactionRow, "policy" | "screening" | "checkedAt" | "screeningAttempts" | "destinationLabel">;

/** A step's refusal: the decision without the policy and screening taken so far (the runner adds them). */
export type CheckRefusal =
  | { outcome: "BLOCKED"; subStatus: Extract<TransferCheckDecision, { outcome: "BLOCKED" }>["subStatus"]; reason: string }
  | { outcome: "FAILED"; subStatus: Extract<TransferCheckDecision, { outcome: "FAILED" }>["subStatus"]; reason: string };

/**
 * The statuses a policy and screening decision is taken in: SUBMITTED (the checks), QUEUED and
 * SIGNED (taken again before release and before broadcast, `recheckTransfer`).
 */
export type DecidingStatus = "SUBMITTED" | "QUEUED" | "SIGNED";

export type ScreeningDeps = Pick<ServiceDeps, "db" | "now" | "config" | "log">;

/**
 * What one kind of transaction puts before the checks, which are the same for every kind
 * (`run-transfer-checks.ts`). A transfer is itself; a deployment is judged as a zero-value
 * transaction of the network's native asset with no destination (`deploymentCheckSubject`).
 */
export interface CheckSubject {
  /** The word its refusals use. */
  noun: "transfer" | "deployment";
  /** Whether it moves an amount the balance must cover before the fee (a deployment moves none). */
  movesValue: boolean;
  /** The asset the policy judges and the quota and the source's reservations count. */
  assetId: string;
  /** Shown in a token balance refusal. */
  symbol: string;
  /** The ERC-20 contract the amount is in; null for the native asset. */
  token: string | null;
  /** What the policy judges: "" (no destination) matches no rule's destination list. */
  destinationAddress: string;
  amount: bigint;
  /** AML screening of its counterparties, failing closed (`screenTransferFailingClosed`). */
  screen: (deps: ScreeningDeps, status: DecidingStatus) => Promise<ScreeningResult>;
  /** The call whose gas the fee quote estimates. */
  call: () => FeeCall;
}

/**
 * Screens one counterparty of a stored transaction (its destination; a deployment's constructor
 * address), failing closed: the row's tenant, id, network and source with what is screened.
 */
export function screenCounterparty(
  deps: ScreeningDeps,
  row: TransactionRow,
  counterparty: Pick<ScreeningRequest, "destinationAddress" | "assetId" | "asset" | "amount">,
  status: DecidingStatus,
): Promise<ScreeningResult> {
  return screenTransferFailingClosed(
    deps,
    {
      tenantId: row.tenantId,
      transactionId: row.id,
      networkCode: row.networkCode as NetworkCode,
      chainId: row.chainId,
      sourceAddress: row.sourceAddress,
      ...counterparty,
    },
    status,
  );
}
