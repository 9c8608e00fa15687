import { and, eq, schema, type Database } from "@qc/db";
import { AppError } from "../errors";
import { auditCustody, type CustodyActor } from "./custody-actor";
import { assertVaultMetadata } from "./vault-metadata";
import { toVaultRecord, type VaultRecord } from "./vault-record";

export interface UpdateVaultInput {
  tenantId: string;
  vaultId: string;
  name?: string;
  /** Replaces the whole metadata object (PUT semantics). */
  metadata?: Record<string, string>;
  actor: CustodyActor;
}

/** Renames and/or replaces metadata; an archived vault is read-only (409 VAULT_ARCHIVED). */
export async function updateVault(deps: { db: Database; now(): Date }, input: UpdateVaultInput): Promise<VaultRecord> {
  if (input.name === undefined && input.metadata === undefined) {
    throw new AppError("VALIDATION_FAILED", "nothing to update: send name and/or metadata", {
      details: { fields: [{ path: "(body)", message: "name or metadata is required" }] },
    });
  }
  if (input.metadata !== undefined) assertVaultMetadata(input.metadata);
  return deps.db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(schema.vaults)
      .where(and(eq(schema.vaults.id, input.vaultId), eq(schema.vaults.tenantId, input.tenantId)))
      .for("update");
    if (!current) throw new AppError("NOT_FOUND", "vault not found");
    if (current.status === "ARCHIVED") throw new AppError("VAULT_ARCHIVED", "the vault is archived and cannot be changed", { details: { vaultId: input.vaultId } });
    const [row] = await tx
      .update(schema.vaults)
      .set({
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
        updatedAt: deps.now(),
      })
      .where(eq(schema.vaults.id, current.id))
      .returning();
    await auditCustody(tx, input.actor, input.tenantId, "vault.updated", { type: "vault", id: current.id }, {
      changed: [...(input.name === undefined ? [] : ["name"]), ...(input.metadata === undefined ? [] : ["metadata"])],
    });
    return toVaultRecord(row!);
  });
}
