import { parseAddress, type NetworkCode } from "@qc/chain";
import { findContractTemplate } from "@qc/chain/contracts";
import type { TransactionRow } from "@qc/db/queries";
import { addTokenAsset } from "../assets/add-token-asset";
import { systemActor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";

/**
 * What a CONTRACT_DEPLOY's completion adds, run by the watch right before it moves the row to
 * COMPLETED: the address the receipt reports, and for a TOKEN template the new token as an asset
 * of the tenant on that network, through the same service as `POST /v1/assets` (symbol and
 * decimals read from the chain). Idempotent: a watch retried after a crash finds the asset and
 * goes on. A chain that cannot be reached throws 503, so the watch looks again later and the row
 * does not complete without its asset.
 */
export async function completeDeployment(
  deps: Pick<ServiceDeps, "db" | "chain" | "now" | "log">,
  row: TransactionRow,
  receipt: { contractAddress?: string | null | undefined },
): Promise<{ contractAddress: string }> {
  if (!receipt.contractAddress)
    throw new AppError("INTERNAL", "a successful contract creation without a contract address in its receipt", {
      details: { transactionId: row.id },
    });
  const contractAddress = parseAddress(receipt.contractAddress);
  const template = row.templateId ? findContractTemplate(row.templateId) : undefined;
  if (template?.kind === "TOKEN") {
    try {
      const { asset, created } = await addTokenAsset(deps, {
        tenantId: row.tenantId,
        networkCode: row.networkCode as NetworkCode,
        contractAddress,
        actor: systemActor("transfers.watch"),
      });
      deps.log.info({ transactionId: row.id, assetId: asset.id, created }, "deployed token added to the tenant's assets");
    } catch (error) {
      // A deployed template that does not answer as an ERC-20 is a catalog defect: complete anyway, loudly.
      if (!(error instanceof AppError && error.error === "UNKNOWN_ASSET")) throw error;
      deps.log.error(
        { transactionId: row.id, templateId: row.templateId, contractAddress, err: error },
        "deployed token template does not answer as an ERC-20: not added to the assets",
      );
    }
  }
  return { contractAddress };
}
