import { NETWORKS, type NetworkCode } from "@qc/chain";
import { findNetworkLink, findWalletRow } from "@qc/db/queries";
import type { Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { duplicateExternalIdOr, insertSubmittedTransaction } from "../transfers/submit-transaction";
import { AppError } from "../errors";
import { assertTenantVerified } from "../kyc/assert-tenant-verified";
import type { TransactionRecord } from "../records/record-schemas";
import { assertTransferSource } from "../wallets/assert-transfer-source";
import { encodeDeploymentData } from "./encode-deployment-data";
import { requireContractTemplate } from "./find-contract-template";

export interface CreateContractDeploymentInput {
  tenantId: string;
  templateId: string;
  networkCode: NetworkCode;
  sourceWalletId: string;
  /** As the client sent it: validated against the template's constructor here. */
  constructorArgs: unknown;
  externalId?: string | undefined;
  note?: string | undefined;
  actor: Actor;
}

/**
 * Accepts a deployment of a catalog template (CONTRACT §8) as a CONTRACT_DEPLOY transaction in
 * SUBMITTED, which then takes the transfers' path: checks, release for signing, signature,
 * broadcast, confirmations (docs/contracts.md). Refused before anything is stored: an unknown
 * template (404), constructor arguments that do not fit its ABI (400 naming each), a source that
 * is not an ACTIVE, non-watch-only wallet of the tenant placed on `networkCode` (404, 409, 400).
 * The row keeps the template id and the canonical arguments, from which every later step rebuilds
 * the creation data; `data` is stored only to be compared with those rebuilds.
 */
export async function createContractDeployment(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "config">,
  input: CreateContractDeploymentInput,
): Promise<TransactionRecord> {
  const template = requireContractTemplate(input.templateId);
  const encoded = encodeDeploymentData(template, input.constructorArgs);
  const now = deps.now();
  try {
    return await deps.db.transaction(async (tx) => {
      await assertTenantVerified(tx, input.tenantId);
      const wallet = await findWalletRow(tx, { tenantId: input.tenantId, walletId: input.sourceWalletId });
      if (!wallet) throw new AppError("NOT_FOUND", "source wallet not found", { details: { sourceWalletId: input.sourceWalletId } });
      assertTransferSource(wallet);
      const link = await findNetworkLink(tx, { tenantId: input.tenantId, walletId: wallet.id, networkCode: input.networkCode });
      if (!link) {
        throw new AppError("NETWORK_MISMATCH", `the source wallet is not placed on ${input.networkCode}`, {
          details: { sourceWalletId: wallet.id, networkCode: input.networkCode },
        });
      }
      return insertSubmittedTransaction(tx, deps, {
        values: {
          tenantId: input.tenantId,
          externalId: input.externalId ?? null,
          type: "CONTRACT_DEPLOY",
          networkCode: input.networkCode,
          chainId: NETWORKS[input.networkCode].chainId,
          sourceWalletId: wallet.id,
          sourceAddress: wallet.address,
          destinationAddress: null,
          assetId: null,
          amount: "0",
          data: encoded.data,
          templateId: template.id,
          constructorArgs: encoded.constructorArgs,
          note: input.note ?? null,
          requiredConfirmations: deps.config.transfers.requiredConfirmations[input.networkCode],
          createdAt: now,
          updatedAt: now,
        },
        actor: input.actor,
        auditDetails: (row) => ({
          type: "CONTRACT_DEPLOY",
          networkCode: row.networkCode,
          sourceWalletId: row.sourceWalletId,
          templateId: template.id,
          templateVersion: template.version,
          bytecodeHash: encoded.bytecodeHash,
          constructorArgs: encoded.constructorArgs,
          externalId: row.externalId,
        }),
      });
    });
  } catch (error) {
    throw duplicateExternalIdOr(error, input.externalId);
  }
}
