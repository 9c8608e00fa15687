import { readNativeBalance, type NetworkCode } from "@qc/chain";
import { findContractTemplate } from "@qc/chain/contracts";
import { findNetworkLink, findWalletRow, sumSourceReservations, type TransactionRow } from "@qc/db/queries";
import { nativeAssetId } from "../assets/native-assets";
import { chainUnavailable } from "../balances/chain-errors";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { decideTransferPolicy } from "../policies/decide-transfer-policy";
import { checkDailyQuota } from "../quotas/check-daily-quota";
import { isProviderUnavailable, screenTransferFailingClosed } from "../screening/screen-transfer";
import type { ScreeningResult } from "../screening/screening-provider";
import { TransferUnaffordableError, TransferWouldRevertError } from "../transfers/quote-transfer-fees";
import type { DecidingStatus, TransferCheckDecision } from "../transfers/run-transfer-checks";
import { deploymentData } from "./deployment-data";
import { quoteDeploymentFees } from "./quote-deployment-fees";

type CheckDeps = Pick<ServiceDeps, "db" | "jobs" | "now" | "config" | "chain" | "log">;

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** The provider name recorded when a deployment names no counterparty to screen. */
export const NO_COUNTERPARTY_PROVIDER = "none";

/**
 * The checks of a SUBMITTED CONTRACT_DEPLOY, in the transfers' order (docs/contracts.md):
 *
 * 1. The stored intent still rebuilds against the pinned catalog (template known, arguments
 *    valid, stored creation data equal to the rebuild); otherwise FAILED/SIGNATURE_MISMATCH.
 * 2. Policy: the deployment is judged as a zero-value transaction of the network's native asset
 *    with no destination, so rules on network, vault, wallet or the native asset apply, rules
 *    on destinations or amounts never match, and `defaultAction` decides the rest.
 * 3. Screening: the counterparties are the non-zero addresses among the constructor arguments
 *    (the holder, admin or beneficiary the contract gives value or power to); each is screened
 *    as a destination, the first BLOCKED verdict decides. None → CLEAR, provider `none`.
 * 4. The daily quota on the number of transactions (a deployment moves no asset amount).
 * 5. Balance: the source must hold the maximum fee (gas limit × max fee per gas of the
 *    creation, as estimated by the node) plus what its pending transactions take; a
 *    constructor that would revert is FAILED/INTERNAL_ERROR before anything is signed.
 */
export async function decideDeploymentChecks(deps: CheckDeps, row: TransactionRow): Promise<TransferCheckDecision> {
  const standing = await decideDeploymentPolicyAndScreening(deps, row, "SUBMITTED");
  if (standing.outcome !== "CLEARED") return standing;
  const { policy, screening } = standing;
  const networkCode = row.networkCode as NetworkCode;
  // Rebuilt by the step above already (a failure ended it SIGNATURE_MISMATCH there).
  const data = deploymentData(row);
  const nativeAsset = nativeAssetId(networkCode);

  const quota = await checkDailyQuota(deps.db, deps.config.transfers.dailyQuota, { tenantId: row.tenantId, transactionId: row.id, assetId: nativeAsset, createdAt: row.createdAt });
  if (quota.exceeded) return { outcome: "BLOCKED", subStatus: "QUOTA_EXCEEDED", reason: quota.reason, policy, screening };

  const client = deps.chain.client(networkCode);
  let native: bigint;
  try {
    native = (await readNativeBalance(client, { address: row.sourceAddress })).balance;
  } catch (error) {
    throw chainUnavailable(networkCode, error);
  }
  let maxFee: bigint;
  try {
    const quote = await quoteDeploymentFees(deps, { networkCode, sourceAddress: row.sourceAddress, data });
    maxFee = quote.gasLimit * quote.maxFeePerGas;
  } catch (error) {
    if (error instanceof TransferUnaffordableError) return { outcome: "FAILED", subStatus: "INSUFFICIENT_FUNDS", reason: "insufficient funds: the node says the source cannot pay this deployment", policy, screening };
    if (error instanceof TransferWouldRevertError) return { outcome: "FAILED", subStatus: "INTERNAL_ERROR", reason: `the deployment would revert on chain: ${error.message}`, policy, screening };
    throw error;
  }
  const reserved = await sumSourceReservations(deps.db, { tenantId: row.tenantId, sourceWalletId: row.sourceWalletId, networkCode, assetId: nativeAsset, excludeId: row.id });
  const needed = maxFee + reserved.fees + reserved.amount;
  if (native < needed) {
    const pending = reserved.amount || reserved.fees ? " and its pending transactions" : "";
    return { outcome: "FAILED", subStatus: "INSUFFICIENT_FUNDS", reason: `insufficient funds: the source holds ${native} Qwei; it needs ${needed} for the maximum fee (${maxFee})${pending}`, policy, screening };
  }
  return { outcome: "CLEARED", policy, screening };
}

/**
 * Steps 1–3 above (catalog, policy, screening): the part of a deployment's checks whose answer
 * can go stale while it waits, run by the checks and again by `recheckTransfer` before release
 * and broadcast. The provider's failed attempts are counted while the row is in `status`.
 */
export async function decideDeploymentPolicyAndScreening(
  deps: Pick<ServiceDeps, "db" | "now" | "config" | "log">,
  row: TransactionRow,
  status: DecidingStatus,
): Promise<TransferCheckDecision> {
  const networkCode = row.networkCode as NetworkCode;
  const wallet = await findWalletRow(deps.db, { tenantId: row.tenantId, walletId: row.sourceWalletId });
  const link = await findNetworkLink(deps.db, { tenantId: row.tenantId, walletId: row.sourceWalletId, networkCode });
  if (!wallet || wallet.status !== "ACTIVE" || wallet.type === "WATCH_ONLY" || !link) {
    return { outcome: "FAILED", subStatus: "INTERNAL_ERROR", reason: "the source wallet was archived or moved off the network after the deployment was created", policy: null, screening: null };
  }
  try {
    deploymentData(row);
  } catch (error) {
    const reason = error instanceof AppError ? error.message : "the deployment cannot be rebuilt from the catalog";
    return { outcome: "FAILED", subStatus: "SIGNATURE_MISMATCH", reason, policy: null, screening: null };
  }
  const nativeAsset = nativeAssetId(networkCode);

  const policy = await decideTransferPolicy(deps.db, {
    tenantId: row.tenantId,
    // No destination: an empty string matches no rule's destination list.
    transfer: { networkCode, sourceWalletId: row.sourceWalletId, sourceVaultId: link.vaultId, assetId: nativeAsset, destinationAddress: "", amount: 0n },
    at: row.createdAt,
    transactionId: row.id,
  });
  if (policy.decision === "BLOCK") return { outcome: "BLOCKED", subStatus: "BLOCKED_BY_POLICY", reason: policy.reason, policy, screening: null };

  const screening = await screenCounterparties(deps, row, nativeAsset, status);
  if (screening.decision === "BLOCKED") {
    const reason = screening.reasons.length ? screening.reasons.join("; ") : `blocked by AML screening (${screening.provider})`;
    return { outcome: "BLOCKED", subStatus: "REJECTED_AML_SCREENING", reason, policy, screening };
  }
  return { outcome: "CLEARED", policy, screening };
}

/** The non-zero address arguments (name and address), in ABI order: who the contract gives value or power to. */
export function deploymentCounterparties(row: Pick<TransactionRow, "templateId" | "constructorArgs">): { name: string; address: string }[] {
  const template = row.templateId ? findContractTemplate(row.templateId) : undefined;
  if (!template || !row.constructorArgs) return [];
  return template.constructorInputs
    .filter((input) => input.type === "address")
    .map((input) => ({ name: input.name, address: row.constructorArgs![input.name] }))
    .filter((entry): entry is { name: string; address: string } => typeof entry.address === "string" && entry.address !== ZERO_ADDRESS);
}

async function screenCounterparties(deps: Pick<ServiceDeps, "db" | "now" | "config" | "log">, row: TransactionRow, nativeAsset: string, status: DecidingStatus): Promise<ScreeningResult> {
  const counterparties = deploymentCounterparties(row);
  if (counterparties.length === 0) {
    return { provider: NO_COUNTERPARTY_PROVIDER, decision: "CLEAR", riskScore: null, reasons: ["no counterparty address among the constructor arguments"] };
  }
  let last: ScreeningResult | undefined;
  for (const { name, address: destinationAddress } of counterparties) {
    // Fail closed exactly as for a transfer: retry, then BLOCKED with "provider unavailable".
    last = await screenTransferFailingClosed(
      deps,
      {
        tenantId: row.tenantId,
        transactionId: row.id,
        networkCode: row.networkCode as NetworkCode,
        chainId: row.chainId,
        sourceAddress: row.sourceAddress,
        destinationAddress,
        assetId: nativeAsset,
        asset: { kind: "NATIVE", symbol: "Q", decimals: 18, contractAddress: null },
        amount: "0",
      },
      status,
    );
    // "provider unavailable" is the contract's reason as it is, not a verdict on this argument.
    if (isProviderUnavailable(last)) return last;
    if (last.decision === "BLOCKED") {
      const reasons = last.reasons.length ? last.reasons : [`${destinationAddress} is blocked`];
      return { ...last, reasons: reasons.map((reason) => `constructor argument ${name}: ${reason}`) };
    }
  }
  return last!;
}
