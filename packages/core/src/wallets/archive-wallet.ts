import { archiveActiveWallet } from "@qc/db/queries";
import type { Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { runTransition } from "../transitions/run-transition";
import { findWallet, toWalletRecordOf, type WalletRecord } from "./wallet-record";

/**
 * ACTIVE → ARCHIVED with its audit row, one transition; idempotent. An archived wallet stays
 * readable (record, balance) and can no longer be a transaction source.
 */
export async function archiveWallet(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now">,
  input: { tenantId: string; walletId: string; actor: Actor },
): Promise<WalletRecord> {
  const now = deps.now();
  const outcome = await runTransition(deps, {
    tenantId: input.tenantId,
    move: (tx) => archiveActiveWallet(tx, { tenantId: input.tenantId, walletId: input.walletId, archivedAt: now }),
    audit: (row) => ({
      actor: input.actor,
      action: "wallet.archived",
      target: { type: "wallet", id: row.id },
      details: { address: row.address },
    }),
  });
  return toWalletRecordOf(deps.db, outcome.moved ? outcome.row : await findWallet(deps.db, input.tenantId, input.walletId));
}
