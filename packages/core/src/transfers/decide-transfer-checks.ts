import { getPendingNonce, readLatestBalance, type NetworkCode } from "@qc/chain";
import { sumSourceReservations } from "@qc/db/queries";
import { chainUnavailable } from "../balances/chain-errors";
import { deploymentCheckSubject } from "../contracts/decide-deployment-checks";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { decideTransferPolicy } from "../policies/decide-transfer-policy";
import type { PolicyDecision } from "../policies/evaluate-policy-rules";
import { checkDailyQuota } from "../quotas/check-daily-quota";
import type { ScreeningResult } from "../screening/screening-provider";
import {
  screenCounterparty,
  type CheckFields,
  type CheckRefusal,
  type CheckSubject,
  type DecidingStatus,
  type ScreeningDeps,
  type TransferCheckDecision,
  type TransferCheckRows,
} from "./check-subject";
import { quoteFees, transferCall, TransferUnaffordableError, TransferWouldRevertError } from "./quote-transfer-fees";
import { outboundSource } from "./outbound-source";
import type { ChainQuote } from "./release-for-signing";

export type CheckDeps = Pick<ServiceDeps, "db" | "jobs" | "now" | "config" | "chain" | "log" | "verifier">;

/** One check: a refusal, or undefined to go on. The first refusal decides. */
type CheckStep<D> = (deps: D, check: CheckRun) => Promise<CheckRefusal | undefined>;

/** A transaction under its checks: its rows, what its kind puts before them, and what was decided so far. */
interface CheckRun {
  loaded: TransferCheckRows;
  vaultId: string;
  subject: CheckSubject;
  status: DecidingStatus;
  policy: PolicyDecision | null;
  screening: ScreeningResult | null;
  /** The balance check's quote of the chain, passed on to the release (`TransferCheckDecision`'s `chain`). */
  chain?: ChainQuote;
}

/**
 * Policy: the tenant's current rules (first matching rule, velocity windows as of the
 * transaction's creation, itself counted once however often it is decided).
 */
const policyStep: CheckStep<ScreeningDeps> = async (deps, check) => {
  const row = check.loaded.transaction;
  const { subject } = check;
  check.policy = await decideTransferPolicy(deps.db, {
    tenantId: row.tenantId,
    transfer: {
      networkCode: row.networkCode as NetworkCode,
      sourceWalletId: outboundSource(row).sourceWalletId,
      sourceVaultId: check.vaultId,
      assetId: subject.assetId,
      destinationAddress: subject.destinationAddress,
      amount: subject.amount,
    },
    at: row.createdAt,
    now: deps.now(),
    transactionId: row.id,
  });
  if (check.policy.decision === "BLOCK") return { outcome: "BLOCKED", subStatus: "BLOCKED_BY_POLICY", reason: check.policy.reason };
  return undefined;
};

/**
 * AML screening (the tenant's and the service's denylist, then the HTTP provider), failing closed:
 * its attempts are counted while the row is in the run's status (`screenTransferFailingClosed`).
 */
const screeningStep: CheckStep<ScreeningDeps> = async (deps, check) => {
  const screening = await check.subject.screen(deps, check.status);
  check.screening = screening;
  if (screening.decision !== "BLOCKED") return undefined;
  const reason = screening.reasons.length ? screening.reasons.join("; ") : `blocked by AML screening (${screening.provider})`;
  return { outcome: "BLOCKED", subStatus: "REJECTED_AML_SCREENING", reason };
};

/** The tenant's daily quotas. */
const quotaStep: CheckStep<CheckDeps> = async (deps, check) => {
  const row = check.loaded.transaction;
  const quota = await checkDailyQuota(deps.db, deps.config.transfers.dailyQuota, {
    tenantId: row.tenantId,
    transactionId: row.id,
    assetId: check.subject.assetId,
    createdAt: row.createdAt,
  });
  return quota.exceeded ? { outcome: "BLOCKED", subStatus: "QUOTA_EXCEEDED", reason: quota.reason } : undefined;
};

/**
 * Whether the source can pay: the amount (in its asset: native or the token) plus what its
 * cleared, unmined transactions take, and in native the maximum fee (gasLimit × maxFeePerGas, the
 * same quote the release uses) plus their fees. Read live from the chain.
 */
const balanceStep: CheckStep<CheckDeps> = async (deps, check) => {
  const row = check.loaded.transaction;
  const { noun, movesValue, token, amount, symbol, assetId } = check.subject;
  const networkCode = row.networkCode as NetworkCode;
  // The reads are independent: started together (the chain's in one JSON-RPC batch, `batchClient`,
  // beside the reservations' statement), then decided in the order below. The fee quote and the
  // source's pending nonce are what the release asks the chain: passed on, the release that
  // follows at once asks nothing again (a pending nonce that cannot be read leaves that to it).
  const client = deps.chain.batchClient(networkCode);
  const quoting = quoteFees(deps, { networkCode, from: row.sourceAddress, call: check.subject.call() }).then(
    (quote) => ({ quote }),
    (error: unknown) => ({ error }),
  );
  const pendingNonce = getPendingNonce(client, { address: row.sourceAddress }).then(
    (nonce) => nonce.pending,
    () => undefined,
  );
  const [reserved, [native, tokenBalance]] = await Promise.all([
    sumSourceReservations(deps.db, {
      tenantId: row.tenantId,
      sourceWalletId: outboundSource(row).sourceWalletId,
      networkCode,
      assetId,
      excludeId: row.id,
    }),
    // At the latest block, unpinned: one call each, in the batch (a pinned read asks for the block number first).
    Promise.all([
      readLatestBalance(client, { owner: row.sourceAddress }),
      token ? readLatestBalance(client, { owner: row.sourceAddress, token }) : undefined,
    ]).catch((error: unknown) => {
      throw chainUnavailable(networkCode, error);
    }),
  ]);
  const insufficient = (what: string): CheckRefusal => ({
    outcome: "FAILED",
    subStatus: "INSUFFICIENT_FUNDS",
    reason: `insufficient funds: ${what}`,
  });
  const beside = reserved.amount ? ` beside ${reserved.amount} taken by its pending transfers` : "";
  if (token && tokenBalance! < amount + reserved.amount) {
    return insufficient(`the source holds ${tokenBalance} ${symbol} (raw units); this transfer needs ${amount}${beside}`);
  }
  if (movesValue && !token && native < amount + reserved.amount) {
    return insufficient(`the source holds ${native} Qwei; this transfer needs ${amount} plus the fee${beside}`);
  }
  const quoted = await quoting;
  if ("error" in quoted) {
    const { error } = quoted;
    if (error instanceof TransferUnaffordableError) return insufficient(`the node says the source cannot pay this ${noun}`);
    if (error instanceof TransferWouldRevertError)
      return { outcome: "FAILED", subStatus: "INTERNAL_ERROR", reason: `the ${noun} would revert on chain: ${error.message}` };
    throw error;
  }
  const maxFee = quoted.quote.gasLimit * quoted.quote.maxFeePerGas;
  const nativeNeeded = maxFee + reserved.fees + (token ? 0n : amount + reserved.amount);
  if (native < nativeNeeded) {
    const pending = reserved.amount || reserved.fees ? ` and its pending ${movesValue ? "transfers" : "transactions"}` : "";
    return insufficient(
      `the source holds ${native} Qwei; it needs ${nativeNeeded} for ${movesValue && !token ? "the amount, " : ""}the maximum fee (${maxFee})${pending}`,
    );
  }
  const nonce = await pendingNonce;
  if (nonce !== undefined) check.chain = { fees: quoted.quote, pendingNonce: nonce };
  return undefined;
};

/** The part of the checks whose answer can go stale while the transaction waits. */
const STANDING_STEPS = [policyStep, screeningStep] as const;

/** Every check of a SUBMITTED transaction, in order. */
const CHECK_STEPS = [...STANDING_STEPS, quotaStep, balanceStep] as const;

/**
 * Runs `steps` over a transaction of any kind: first the source-wallet gate (still active, not
 * watch-only, still placed on the network), then what its kind puts before the checks (a
 * transfer's asset and destination; a deployment rebuilt from the catalog), then each step in
 * order. The first refusal decides, with the policy and screening taken up to it.
 */
async function runChecks<D extends ScreeningDeps>(
  deps: D,
  loaded: TransferCheckRows,
  status: DecidingStatus,
  steps: readonly CheckStep<D>[],
): Promise<TransferCheckDecision> {
  const { transaction: row, wallet, vaultId } = loaded;
  const deployment = row.type === "CONTRACT_DEPLOY";
  if (!wallet || wallet.status !== "ACTIVE" || wallet.type === "WATCH_ONLY" || !vaultId) {
    const reason = `the source wallet was archived or moved off the network after the ${deployment ? "deployment" : "transfer"} was created`;
    return { outcome: "FAILED", subStatus: "INTERNAL_ERROR", reason, policy: null, screening: null };
  }
  const subject = deployment ? deploymentCheckSubject(row) : transferCheckSubject(loaded);
  if ("outcome" in subject) return { ...subject, policy: null, screening: null } as TransferCheckDecision;
  const check: CheckRun = { loaded, vaultId, subject, status, policy: null, screening: null };
  for (const step of steps) {
    const refusal = await step(deps, check);
    if (refusal) return { ...refusal, policy: check.policy, screening: check.screening } as TransferCheckDecision;
  }
  return { outcome: "CLEARED", policy: check.policy!, screening: check.screening!, ...(check.chain ? { chain: check.chain } : {}) };
}

/** A transfer as the checks see it: its asset (visible to the tenant), destination and amount. */
function transferCheckSubject(loaded: TransferCheckRows): CheckSubject {
  const { transaction: row, asset } = loaded;
  const destinationAddress = row.destinationAddress;
  if (!asset || destinationAddress === null)
    throw new AppError("INTERNAL", "transfer without a destination or a visible asset", { details: { transactionId: row.id } });
  const amount = BigInt(row.amount);
  const token = asset.kind === "TOKEN" ? asset.contractAddress : null;
  return {
    noun: "transfer",
    movesValue: true,
    assetId: asset.id,
    symbol: asset.symbol,
    token,
    destinationAddress,
    amount,
    screen: (deps, status) =>
      screenCounterparty(
        deps,
        row,
        {
          destinationAddress,
          assetId: asset.id,
          asset: { kind: asset.kind, symbol: asset.symbol, decimals: asset.decimals, contractAddress: asset.contractAddress },
          amount: row.amount,
        },
        status,
      ),
    call: () => transferCall({ chainId: row.chainId, destinationAddress, amount, token }),
  };
}

/**
 * The checks of a SUBMITTED transfer or contract deployment, in this order: the source wallet,
 * policy, AML screening, the tenant's daily quotas, and the source's balance against the amount
 * plus the maximum fee plus what its cleared, unmined transactions already take. The first
 * refusal decides. A deployment is judged as a zero-value transaction of the native asset with
 * no destination whose counterparties are its constructor's addresses (`deploymentCheckSubject`).
 *
 * A screening provider that gives no verdict counts an attempt on the row and throws 503
 * UNAVAILABLE (the job retries); at `config.screening.maxAttempts` the transaction is BLOCKED /
 * REJECTED_AML_SCREENING with reason "provider unavailable". An unreachable chain is 503 too.
 */
export function decideTransferChecks(deps: CheckDeps, loaded: TransferCheckRows): Promise<TransferCheckDecision> {
  return runChecks(deps, loaded, "SUBMITTED", CHECK_STEPS);
}

/**
 * The part of the checks whose answer can go stale while the transaction waits: the source still
 * placed on the network (and a deployment still rebuilding from the catalog), the tenant's
 * current policy and AML screening, failing closed (its attempts counted while the row is in
 * `status`). The checks run it first; `recheckTransfer` runs it again before release and broadcast.
 */
export function decideTransferPolicyAndScreening(
  deps: ScreeningDeps,
  loaded: TransferCheckRows,
  status: DecidingStatus,
): Promise<TransferCheckDecision> {
  return runChecks(deps, loaded, status, STANDING_STEPS);
}

/**
 * What a decision writes on the row with the move that follows it: `policy`, `screening`, when
 * it was taken (`checkedAt`: the age `recheckTransfer` measures), the destination's address-book
 * label when the policy looked the destination up (CONTRACT §16) and, when it cleared, the
 * provider's failed attempts back to 0 (counted again from there by a later re-run).
 */
export function checkFields(decision: TransferCheckDecision, decidedAt: Date): CheckFields {
  return {
    policy: decision.policy ? { decision: decision.policy.decision, ruleId: decision.policy.ruleId } : null,
    destinationLabel: decision.policy?.destinationLabel ?? null,
    screening: decision.screening,
    checkedAt: decidedAt,
    ...(decision.outcome === "CLEARED" ? { screeningAttempts: 0 } : {}),
  };
}
