import type { ServiceDeps } from "../deps/service-deps";
import { resolveTransferIntent, type TransferIntentInput } from "../transfers/resolve-transfer-intent";
import { decideTransferPolicy } from "./decide-transfer-policy";
import type { PolicyDecision } from "./evaluate-policy-rules";

/**
 * `POST /v1/policies/evaluate`: what the current policy would decide for this transfer body if
 * it were created now (velocity windows ending now, this amount added). The body is validated
 * as on create (404 for an unknown source wallet, 400 for an invalid address or asset). Writes
 * nothing: screening, quotas and balance are not part of the dry run.
 */
export async function evaluatePolicy(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: TransferIntentInput & { tenantId: string },
): Promise<PolicyDecision> {
  const intent = await resolveTransferIntent(deps.db, input.tenantId, input);
  const now = deps.now();
  return decideTransferPolicy(deps.db, {
    tenantId: input.tenantId,
    transfer: {
      networkCode: intent.networkCode,
      sourceWalletId: intent.wallet.id,
      sourceVaultId: intent.sourceVaultId,
      assetId: intent.asset.id,
      destinationAddress: intent.destinationAddress,
      amount: intent.amount,
    },
    at: now,
    now,
  });
}
