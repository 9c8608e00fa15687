import { readErc20Balance, readNativeBalance, type NetworkCode } from "@qc/chain";
import { findTransferCheckRows, sumSourceReservations, type AssetRow, type TransactionRow, type WalletRow } from "@qc/db/queries";
import { systemActor } from "../audit/actor";
import { chainUnavailable } from "../balances/chain-errors";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { decideTransferPolicy } from "../policies/decide-transfer-policy";
import type { PolicyDecision } from "../policies/evaluate-policy-rules";
import { checkDailyQuota } from "../quotas/check-daily-quota";
import { screenTransferFailingClosed } from "../screening/screen-transfer";
import type { ScreeningResult } from "../screening/screening-provider";
import { quoteTransferFees, TransferUnaffordableError, TransferWouldRevertError } from "./quote-transfer-fees";
import { releaseForSigning, releaseNextJob, type CheckFields, type ReleaseOutcome } from "./release-for-signing";
import { transitionTransaction } from "./transition-transaction";
import { decideDeploymentChecks } from "../contracts/decide-deployment-checks";

type CheckDeps = Pick<ServiceDeps, "db" | "jobs" | "now" | "config" | "chain" | "log">;

/**
 * What the checks read about a transfer, loaded in one statement by `findTransferCheckRows`: the
 * row, its source wallet, the vault the wallet is placed in on the row's network (null: not placed
 * there any more) and its asset (null: none, or one the tenant cannot see).
 */
export interface TransferCheckRows {
  transaction: TransactionRow;
  wallet: WalletRow | null;
  vaultId: string | null;
  asset: AssetRow | null;
}

/**
 * What the checks decided about a SUBMITTED transfer. The decision is separate from what
 * follows (release for signing, or the refusal's status change), so that a later stage (the
 * roadmap's approval quorums, between checks and PENDING_SIGNATURE) can be inserted between them.
 */
export type TransferCheckDecision =
  | { outcome: "CLEARED"; policy: PolicyDecision; screening: ScreeningResult }
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

/**
 * The statuses a policy and screening decision is taken in: SUBMITTED (the checks), QUEUED and
 * SIGNED (taken again before release and before broadcast, `recheckTransfer`).
 */
export type DecidingStatus = "SUBMITTED" | "QUEUED" | "SIGNED";

/**
 * The checks of a SUBMITTED transfer, in this order: policy (first matching rule, velocity
 * windows), AML screening (the tenant's and the service's denylist, then the HTTP provider),
 * the tenant's daily quotas, and the source's balance against the amount plus the maximum fee
 * plus what its cleared, unmined transfers already take. The first refusal decides.
 *
 * A screening provider that gives no verdict counts an attempt on the row and throws 503
 * UNAVAILABLE (the job retries); at `config.screening.maxAttempts` the transfer is BLOCKED /
 * REJECTED_AML_SCREENING with reason "provider unavailable". An unreachable chain is 503 too.
 */
export async function decideTransferChecks(deps: CheckDeps, loaded: TransferCheckRows): Promise<TransferCheckDecision> {
  const standing = await decideTransferPolicyAndScreening(deps, loaded, "SUBMITTED");
  if (standing.outcome !== "CLEARED") return standing;
  const { policy, screening } = standing;
  const row = loaded.transaction;
  const asset = loaded.asset!;
  const amount = BigInt(row.amount);

  const quota = await checkDailyQuota(deps.db, deps.config.transfers.dailyQuota, { tenantId: row.tenantId, transactionId: row.id, assetId: asset.id, createdAt: row.createdAt });
  if (quota.exceeded) return { outcome: "BLOCKED", subStatus: "QUOTA_EXCEEDED", reason: quota.reason, policy, screening };

  const shortfall = await balanceShortfall(deps, row, asset, amount);
  if (shortfall) return { outcome: "FAILED", subStatus: shortfall.subStatus, reason: shortfall.reason, policy, screening };
  return { outcome: "CLEARED", policy, screening };
}

/**
 * The part of a transfer's checks whose answer can go stale while it waits: the source still
 * placed on the network, the tenant's current policy (velocity windows as of the transfer's
 * creation, itself counted once however often it is decided) and AML screening, failing closed
 * (`screenTransferFailingClosed`, its attempts counted while the row is in `status`). The checks
 * run it first; `recheckTransfer` runs it again before release and broadcast.
 */
export async function decideTransferPolicyAndScreening(
  deps: Pick<ServiceDeps, "db" | "now" | "config" | "log">,
  loaded: TransferCheckRows,
  status: DecidingStatus,
): Promise<TransferCheckDecision> {
  const { transaction: row, wallet, vaultId, asset } = loaded;
  const networkCode = row.networkCode as NetworkCode;
  if (!wallet || wallet.status !== "ACTIVE" || wallet.type === "WATCH_ONLY" || !vaultId) {
    return { outcome: "FAILED", subStatus: "INTERNAL_ERROR", reason: "the source wallet was archived or moved off the network after the transfer was created", policy: null, screening: null };
  }
  if (!asset || row.destinationAddress === null) throw new AppError("INTERNAL", "transfer without a destination or a visible asset", { details: { transactionId: row.id } });

  const policy = await decideTransferPolicy(deps.db, {
    tenantId: row.tenantId,
    transfer: { networkCode, sourceWalletId: row.sourceWalletId, sourceVaultId: vaultId, assetId: asset.id, destinationAddress: row.destinationAddress, amount: BigInt(row.amount) },
    at: row.createdAt,
    transactionId: row.id,
  });
  if (policy.decision === "BLOCK") return { outcome: "BLOCKED", subStatus: "BLOCKED_BY_POLICY", reason: policy.reason, policy, screening: null };

  const screening = await screen(deps, row, asset, status);
  if (screening.decision === "BLOCKED") {
    const reason = screening.reasons.length ? screening.reasons.join("; ") : `blocked by AML screening (${screening.provider})`;
    return { outcome: "BLOCKED", subStatus: "REJECTED_AML_SCREENING", reason, policy, screening };
  }
  return { outcome: "CLEARED", policy, screening };
}

function screen(deps: Pick<ServiceDeps, "db" | "now" | "config" | "log">, row: TransactionRow, asset: AssetRow, status: DecidingStatus): Promise<ScreeningResult> {
  return screenTransferFailingClosed(
    deps,
    {
      tenantId: row.tenantId,
      transactionId: row.id,
      networkCode: row.networkCode as NetworkCode,
      chainId: row.chainId,
      sourceAddress: row.sourceAddress,
      destinationAddress: row.destinationAddress!,
      assetId: asset.id,
      asset: { kind: asset.kind, symbol: asset.symbol, decimals: asset.decimals, contractAddress: asset.contractAddress },
      amount: row.amount,
    },
    status,
  );
}

/**
 * What a decision writes on the row with the move that follows it: `policy`, `screening`, when
 * it was taken (`checkedAt`: the age `recheckTransfer` measures) and, when it cleared, the
 * provider's failed attempts back to 0 (counted again from there by a later re-run).
 */
export function checkFields(decision: TransferCheckDecision, decidedAt: Date): CheckFields {
  return {
    policy: decision.policy ? { decision: decision.policy.decision, ruleId: decision.policy.ruleId } : null,
    screening: decision.screening,
    checkedAt: decidedAt,
    ...(decision.outcome === "CLEARED" ? { screeningAttempts: 0 } : {}),
  };
}

/**
 * Whether the source can pay: native — amount + gasLimit × maxFeePerGas + what its cleared,
 * unmined transfers take; ERC-20 — the token amount (plus those transfers' amounts) in tokens,
 * and the fees in native. Read live from the chain; the fee is the same estimate the release uses.
 */
async function balanceShortfall(
  deps: CheckDeps,
  row: TransactionRow,
  asset: AssetRow,
  amount: bigint,
): Promise<{ subStatus: "INSUFFICIENT_FUNDS" | "INTERNAL_ERROR"; reason: string } | undefined> {
  const networkCode = row.networkCode as NetworkCode;
  const client = deps.chain.client(networkCode);
  const token = asset.kind === "TOKEN" ? asset.contractAddress : null;
  const reserved = await sumSourceReservations(deps.db, { tenantId: row.tenantId, sourceWalletId: row.sourceWalletId, networkCode, assetId: asset.id, excludeId: row.id });
  let native: bigint;
  let tokenBalance: bigint | undefined;
  try {
    native = (await readNativeBalance(client, { address: row.sourceAddress })).balance;
    if (token) tokenBalance = (await readErc20Balance(client, { token, owner: row.sourceAddress })).balance;
  } catch (error) {
    throw chainUnavailable(networkCode, error);
  }
  const insufficient = (what: string) => ({ subStatus: "INSUFFICIENT_FUNDS" as const, reason: `insufficient funds: ${what}` });
  if (token && tokenBalance! < amount + reserved.amount) {
    return insufficient(`the source holds ${tokenBalance} ${asset.symbol} (raw units); this transfer needs ${amount}${reserved.amount ? ` beside ${reserved.amount} taken by its pending transfers` : ""}`);
  }
  if (!token && native < amount + reserved.amount) {
    return insufficient(`the source holds ${native} Qwei; this transfer needs ${amount} plus the fee${reserved.amount ? ` beside ${reserved.amount} taken by its pending transfers` : ""}`);
  }
  let maxFee: bigint;
  try {
    const quote = await quoteTransferFees(deps, { networkCode, chainId: row.chainId, sourceAddress: row.sourceAddress, destinationAddress: row.destinationAddress!, amount, token });
    maxFee = quote.gasLimit * quote.maxFeePerGas;
  } catch (error) {
    if (error instanceof TransferUnaffordableError) return insufficient("the node says the source cannot pay this transfer");
    if (error instanceof TransferWouldRevertError) return { subStatus: "INTERNAL_ERROR", reason: `the transfer would revert on chain: ${error.message}` };
    throw error;
  }
  const nativeNeeded = maxFee + reserved.fees + (token ? 0n : amount + reserved.amount);
  if (native < nativeNeeded) {
    return insufficient(`the source holds ${native} Qwei; it needs ${nativeNeeded} for ${token ? "" : "the amount, "}the maximum fee (${maxFee})${reserved.amount || reserved.fees ? " and its pending transfers" : ""}`);
  }
  return undefined;
}

export type TransferChecksOutcome =
  | { status: "SKIPPED"; reason: string }
  | { status: "BLOCKED" | "FAILED"; decision: TransferCheckDecision }
  | { status: "RELEASE"; decision: TransferCheckDecision; release: ReleaseOutcome };

/**
 * Job `transfers.check`: runs the checks of a SUBMITTED transfer and applies the decision: a
 * refusal ends BLOCKED (policy, screening, quota) or FAILED (insufficient funds) with its
 * subStatus, a human statusReason and the record's `policy` and `screening` (and release-next
 * for the source's transfers queued behind it); a cleared transfer goes to `releaseForSigning`.
 * A transfer that is no longer SUBMITTED is left alone.
 */
export async function runTransferChecks(deps: CheckDeps, input: { tenantId: string; transactionId: string }): Promise<TransferChecksOutcome> {
  const loaded = await findTransferCheckRows(deps.db, input);
  if (!loaded) throw new AppError("NOT_FOUND", "transaction not found");
  const row = loaded.transaction;
  if (row.status !== "SUBMITTED") return { status: "SKIPPED", reason: `the transaction is ${row.status}` };
  // Taken before anything is asked: the age a later re-run measures is never understated.
  const decidedAt = deps.now();
  const decision = row.type === "CONTRACT_DEPLOY" ? await decideDeploymentChecks(deps, row) : await decideTransferChecks(deps, loaded);
  const checks = checkFields(decision, decidedAt);
  if (decision.outcome === "CLEARED") {
    return { status: "RELEASE", decision, release: await releaseForSigning(deps, { tenantId: row.tenantId, transactionId: row.id, from: "SUBMITTED", checks }) };
  }
  const moved = await transitionTransaction(deps, {
    tenantId: row.tenantId,
    transactionId: row.id,
    from: ["SUBMITTED"],
    to: decision.outcome,
    subStatus: decision.subStatus,
    reason: decision.reason,
    set: checks,
    actor: systemActor("transfers.check"),
    // A younger transfer of the source may be queued behind this one (release is in creation order).
    jobs: (moved) => [releaseNextJob(moved)],
  });
  return moved.moved ? { status: decision.outcome, decision } : { status: "SKIPPED", reason: "the transaction has moved on" };
}
