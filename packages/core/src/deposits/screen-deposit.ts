import { findTransaction, findVisibleAssetRow, recordDepositScreening } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { screenTransfer } from "../screening/screen-transfer";
import { ScreeningUnavailableError, type ScreeningResult } from "../screening/screening-provider";

/**
 * `deposits.screen`: screens a deposit's sender like a transfer's destination (the service's and
 * the tenant's denylists, then the HTTP provider when configured) and records the verdict once
 * (a conditional UPDATE while `screening` is null). A match is recorded, the deposit is not
 * refused (CONTRACT §21). A provider that gives no verdict throws 503 UNAVAILABLE: the job is
 * retried, the deposit stays recorded without a verdict meanwhile.
 */
export async function screenDeposit(
  deps: Pick<ServiceDeps, "db" | "config" | "now" | "log">,
  input: { tenantId: string; transactionId: string },
): Promise<{ screening: ScreeningResult | null }> {
  const row = await findTransaction(deps.db, input.tenantId, input.transactionId);
  if (!row || row.direction !== "INBOUND") return { screening: null };
  if (row.screening) return { screening: row.screening };
  const asset = row.assetId ? await findVisibleAssetRow(deps.db, { tenantId: row.tenantId, assetId: row.assetId }) : undefined;
  let screening: ScreeningResult;
  try {
    screening = await screenTransfer(deps, {
      tenantId: row.tenantId,
      transactionId: row.id,
      networkCode: row.networkCode,
      chainId: row.chainId,
      // The party screened is the sender: asked as a destination is (the same lists, the same provider).
      sourceAddress: row.destinationAddress!,
      destinationAddress: row.sourceAddress,
      assetId: row.assetId ?? "",
      asset: asset
        ? { kind: asset.kind, symbol: asset.symbol, decimals: asset.decimals, contractAddress: asset.contractAddress }
        : { kind: "TOKEN", symbol: "", decimals: 0, contractAddress: row.tokenAddress },
      amount: row.amount,
    });
  } catch (error) {
    if (!(error instanceof ScreeningUnavailableError)) throw error;
    deps.log.warn(
      { transactionId: row.id, provider: error.provider, err: error },
      "screening provider unavailable for a deposit: retrying",
    );
    throw new AppError("UNAVAILABLE", `the screening provider is unavailable: ${error.message}`, { cause: error });
  }
  const written = await recordDepositScreening(deps.db, { tenantId: row.tenantId, transactionId: row.id, screening, at: deps.now() });
  return { screening: written?.screening ?? screening };
}
