import { archiveActiveVault } from "@qc/db/queries";
import type { Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { runTransition } from "../transitions/run-transition";
import { findVault, toVaultRecord, type VaultRecord } from "./vault-record";

/**
 * ACTIVE → ARCHIVED with its audit row and the `vault.archived` event, one transition.
 * Idempotent: archiving an archived vault returns it unchanged and emits nothing. Its wallets
 * stay readable; it takes no new wallets.
 */
export async function archiveVault(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now">,
  input: { tenantId: string; vaultId: string; actor: Actor },
): Promise<VaultRecord> {
  const now = deps.now();
  const outcome = await runTransition(deps, {
    tenantId: input.tenantId,
    move: (tx) => archiveActiveVault(tx, { tenantId: input.tenantId, vaultId: input.vaultId, archivedAt: now }),
    audit: (row) => ({ actor: input.actor, action: "vault.archived", target: { type: "vault", id: row.id } }),
    events: (row) => [{ tenantId: input.tenantId, type: "vault.archived", aggregateId: row.id, data: { vault: toVaultRecord(row) } }],
  });
  return toVaultRecord(outcome.moved ? outcome.row : await findVault(deps.db, input.tenantId, input.vaultId));
}
