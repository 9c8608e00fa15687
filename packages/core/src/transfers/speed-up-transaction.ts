import type { Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import type { TransactionRecord } from "../records/record-schemas";
import { replaceAtNonce } from "./replace-at-nonce";

/**
 * `POST /v1/transactions/{id}/speed-up` (CONTRACT §17): a BROADCASTING transaction gets a
 * REPLACEMENT — the same transaction at the same nonce with higher fee caps, released for the
 * signer (201, the new record). The caps the caller gives (decimal Qwei per gas) are floors; the
 * rule (`replaceAtNonce`) may raise them. Whichever of the nonce's transactions is mined, the
 * others end naming it (the watcher).
 */
export function speedUpTransaction(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "config" | "chain">,
  input: {
    tenantId: string;
    transactionId: string;
    maxFeePerGas?: string | undefined;
    maxPriorityFeePerGas?: string | undefined;
    actor: Actor;
  },
): Promise<TransactionRecord> {
  return replaceAtNonce(deps, {
    tenantId: input.tenantId,
    transactionId: input.transactionId,
    kind: "REPLACEMENT",
    requested: {
      ...(input.maxFeePerGas !== undefined ? { maxFeePerGas: BigInt(input.maxFeePerGas) } : {}),
      ...(input.maxPriorityFeePerGas !== undefined ? { maxPriorityFeePerGas: BigInt(input.maxPriorityFeePerGas) } : {}),
    },
    actor: input.actor,
  });
}
