import type { NetworkCode } from "@qc/chain";
import { findContractTemplate } from "@qc/chain/contracts";
import type { TransactionRow } from "@qc/db/queries";
import { nativeAssetId } from "../assets/native-assets";
import { AppError } from "../errors";
import { isProviderUnavailable } from "../screening/screen-transfer";
import type { ScreeningResult } from "../screening/screening-provider";
import {
  screenCounterparty,
  type CheckRefusal,
  type CheckSubject,
  type DecidingStatus,
  type ScreeningDeps,
} from "../transfers/check-subject";
import { deploymentData } from "./deployment-data";

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** The provider name recorded when a deployment names no counterparty to screen. */
export const NO_COUNTERPARTY_PROVIDER = "none";

/**
 * A SUBMITTED CONTRACT_DEPLOY as the transfers' checks see it (docs/contracts.md), or its refusal:
 *
 * - The stored intent must still rebuild against the pinned catalog (template known, arguments
 *   valid, stored creation data equal to the rebuild); otherwise FAILED/SIGNATURE_MISMATCH.
 * - Policy: a zero-value transaction of the network's native asset with no destination, so rules
 *   on network, vault, wallet or the native asset apply, rules on destinations or amounts never
 *   match, and `defaultAction` decides the rest.
 * - Screening: the counterparties are the non-zero addresses among the constructor arguments
 *   (the holder, admin or beneficiary the contract gives value or power to); each is screened as a
 *   destination, the first BLOCKED verdict decides. None → CLEAR, provider `none`.
 * - The daily quota counts it as a transaction (it moves no asset amount); the balance must cover
 *   the maximum fee of the creation plus what the source's pending transactions take; a
 *   constructor that would revert is FAILED/INTERNAL_ERROR before anything is signed.
 */
export function deploymentCheckSubject(row: TransactionRow): CheckSubject | CheckRefusal {
  let data: `0x${string}`;
  try {
    data = deploymentData(row);
  } catch (error) {
    const reason = error instanceof AppError ? error.message : "the deployment cannot be rebuilt from the catalog";
    return { outcome: "FAILED", subStatus: "SIGNATURE_MISMATCH", reason };
  }
  const nativeAsset = nativeAssetId(row.networkCode as NetworkCode);
  return {
    noun: "deployment",
    movesValue: false,
    assetId: nativeAsset,
    symbol: "Q",
    token: null,
    destinationAddress: "",
    amount: 0n,
    screen: (deps, status) => screenCounterparties(deps, row, nativeAsset, status),
    call: () => ({ value: 0n, data }),
  };
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

async function screenCounterparties(
  deps: ScreeningDeps,
  row: TransactionRow,
  nativeAsset: string,
  status: DecidingStatus,
): Promise<ScreeningResult> {
  const counterparties = deploymentCounterparties(row);
  if (counterparties.length === 0) {
    return {
      provider: NO_COUNTERPARTY_PROVIDER,
      decision: "CLEAR",
      riskScore: null,
      reasons: ["no counterparty address among the constructor arguments"],
    };
  }
  let last: ScreeningResult | undefined;
  for (const { name, address: destinationAddress } of counterparties) {
    // Fail closed exactly as for a transfer: retry, then BLOCKED with "provider unavailable".
    last = await screenCounterparty(
      deps,
      row,
      {
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
