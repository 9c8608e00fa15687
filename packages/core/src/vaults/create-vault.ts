import type { NetworkCode } from "@qc/chain";
import { schema, type Database } from "@qc/db";
import { auditCustody, type CustodyActor } from "./custody-actor";
import { assertVaultMetadata } from "./vault-metadata";
import { toVaultRecord, type VaultRecord } from "./vault-record";

export interface CreateVaultInput {
  tenantId: string;
  name: string;
  networkCode: NetworkCode;
  metadata?: Record<string, string>;
  actor: CustodyActor;
}

export async function createVault(deps: { db: Database }, input: CreateVaultInput): Promise<VaultRecord> {
  const metadata = input.metadata ?? {};
  assertVaultMetadata(metadata);
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(schema.vaults)
      .values({ tenantId: input.tenantId, name: input.name, networkCode: input.networkCode, metadata })
      .returning();
    await auditCustody(tx, input.actor, input.tenantId, "vault.created", { type: "vault", id: row!.id }, { name: input.name, networkCode: input.networkCode });
    return toVaultRecord(row!);
  });
}
