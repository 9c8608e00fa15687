import { updateActiveVault } from "@qc/db/queries";
import type { Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { runTransition } from "../transitions/run-transition";
import { assertVaultMetadata } from "./vault-metadata";
import { findVault, toVaultRecord, type VaultRecord } from "./vault-record";

export interface UpdateVaultInput {
  tenantId: string;
  vaultId: string;
  name?: string;
  /** Replaces the whole metadata object (PUT semantics). */
  metadata?: Record<string, string>;
  actor: Actor;
}

/**
 * Renames and/or replaces metadata with one conditional UPDATE on an ACTIVE vault; an archived
 * vault is read-only (409 VAULT_ARCHIVED), an unknown one 404.
 */
export async function updateVault(deps: Pick<ServiceDeps, "db" | "jobs" | "now">, input: UpdateVaultInput): Promise<VaultRecord> {
  if (input.name === undefined && input.metadata === undefined) {
    throw new AppError("VALIDATION_FAILED", "nothing to update: send name and/or metadata", {
      details: { fields: [{ path: "(body)", message: "name or metadata is required" }] },
    });
  }
  if (input.metadata !== undefined) assertVaultMetadata(input.metadata);
  const changed = [...(input.name === undefined ? [] : ["name"]), ...(input.metadata === undefined ? [] : ["metadata"])];
  const outcome = await runTransition(deps, {
    tenantId: input.tenantId,
    move: (tx) =>
      updateActiveVault(tx, {
        tenantId: input.tenantId,
        vaultId: input.vaultId,
        name: input.name,
        metadata: input.metadata,
        updatedAt: deps.now(),
      }),
    audit: (row) => ({ actor: input.actor, action: "vault.updated", target: { type: "vault", id: row.id }, details: { changed } }),
  });
  if (outcome.moved) return toVaultRecord(outcome.row);
  await findVault(deps.db, input.tenantId, input.vaultId); // 404 for an unknown (or another tenant's) vault
  throw new AppError("VAULT_ARCHIVED", "the vault is archived and cannot be changed", { details: { vaultId: input.vaultId } });
}
