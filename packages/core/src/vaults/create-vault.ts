import type { NetworkCode } from "@qc/chain";
import { insertVault } from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { assertVaultMetadata } from "./vault-metadata";
import { toVaultRecord, type VaultRecord } from "./vault-record";

export interface CreateVaultInput {
  tenantId: string;
  name: string;
  networkCode: NetworkCode;
  metadata?: Record<string, string>;
  actor: Actor;
}

export async function createVault(deps: Pick<ServiceDeps, "db" | "now">, input: CreateVaultInput): Promise<VaultRecord> {
  const metadata = input.metadata ?? {};
  assertVaultMetadata(metadata);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const row = await insertVault(tx, {
      tenantId: input.tenantId,
      name: input.name,
      networkCode: input.networkCode,
      metadata,
      createdAt: now,
      updatedAt: now,
    });
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "vault.created",
      target: { type: "vault", id: row.id },
      details: { name: input.name, networkCode: input.networkCode },
    });
    return toVaultRecord(row);
  });
}
