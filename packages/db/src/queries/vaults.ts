import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { vaults } from "../schema/custody";
import { defineRead } from "../hot-path/define-query";
import { updateWhereStatus } from "./status";

export type VaultRow = typeof vaults.$inferSelect;
export type VaultStatusValue = VaultRow["status"];

export interface VaultKey {
  tenantId: string;
  vaultId: string;
}

export async function insertVault(
  db: Executor,
  params: {
    tenantId: string;
    name: string;
    networkCode: VaultRow["networkCode"];
    metadata: Record<string, string>;
    createdAt: Date;
    updatedAt: Date;
  },
): Promise<VaultRow> {
  const [row] = await db.insert(vaults).values(params).returning();
  return row!;
}

/**
 * The tenant's vault, or undefined (also for another tenant's id). `lock: "share"` holds it
 * against a concurrent status change (an UPDATE) until the transaction ends.
 */
export async function findVaultRow(db: Executor, params: VaultKey & { lock?: "share" }): Promise<VaultRow | undefined> {
  if (params.lock) {
    const [locked] = await db
      .select()
      .from(vaults)
      .where(and(eq(vaults.id, params.vaultId), eq(vaults.tenantId, params.tenantId)))
      .for(params.lock);
    return locked;
  }
  // GET /v1/vault/accounts/{id} runs this on every call: a prepared statement (../hot-path).
  const [row] = await findVaultRead.on(db).execute({ vaultId: params.vaultId, tenantId: params.tenantId });
  return row;
}
const findVaultRead = defineRead("qc_find_vault", (db) =>
  db
    .select()
    .from(vaults)
    .where(and(eq(vaults.id, sql.placeholder("vaultId")), eq(vaults.tenantId, sql.placeholder("tenantId")))),
);

/** One page of the tenant's vaults, newest first: ids below `beforeId`, at most `limit` rows. */
export function listVaultRows(
  db: Executor,
  params: {
    tenantId: string;
    networkCode?: VaultRow["networkCode"] | undefined;
    status?: VaultStatusValue | undefined;
    beforeId?: string | undefined;
    limit: number;
  },
): Promise<VaultRow[]> {
  return db
    .select()
    .from(vaults)
    .where(
      and(
        eq(vaults.tenantId, params.tenantId),
        params.networkCode ? eq(vaults.networkCode, params.networkCode) : undefined,
        params.status ? eq(vaults.status, params.status) : undefined,
        params.beforeId ? lt(vaults.id, params.beforeId) : undefined,
      ),
    )
    .orderBy(desc(vaults.id))
    .limit(params.limit);
}

/** Renames and/or replaces the metadata of an ACTIVE vault; undefined when it is not (or unknown). */
export function updateActiveVault(
  db: Executor,
  params: VaultKey & { name?: string | undefined; metadata?: Record<string, string> | undefined; updatedAt: Date },
): Promise<VaultRow | undefined> {
  return updateWhereStatus(db, vaults, { id: params.vaultId, tenantId: params.tenantId }, ["ACTIVE"], {
    ...(params.name === undefined ? {} : { name: params.name }),
    ...(params.metadata === undefined ? {} : { metadata: params.metadata }),
    updatedAt: params.updatedAt,
  });
}

/** ACTIVE → ARCHIVED; undefined when the vault was not active (or is unknown). */
export function archiveActiveVault(db: Executor, params: VaultKey & { archivedAt: Date }): Promise<VaultRow | undefined> {
  return updateWhereStatus(db, vaults, { id: params.vaultId, tenantId: params.tenantId }, ["ACTIVE"], {
    status: "ARCHIVED",
    archivedAt: params.archivedAt,
    updatedAt: params.archivedAt,
  });
}
